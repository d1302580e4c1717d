package scrape

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	dto "github.com/prometheus/client_model/go"

	"github.com/limitscope/limitscope/trace"
)

// DefaultMaxBody bounds one exposition (after decompression).
const DefaultMaxBody = 32 << 20

// acceptHeader asks for the text format expfmt parses fully.
const acceptHeader = "text/plain;version=0.0.4;q=1,*/*;q=0.1"

// HTTPConfig configures the /metrics scraper.
type HTTPConfig struct {
	Interval time.Duration // default 1s
	Timeout  time.Duration // per scrape; default 80 % of the interval
	MaxBody  int64         // default 32 MiB
	// Mapping is the preset or custom mapping; nil detects a preset on the
	// first successful scrape of each endpoint.
	Mapping *Mapping
	Auth
	// Now is the clock for sample times (default time.Now).
	Now func() time.Time
}

// HTTPSource scrapes /metrics endpoints concurrently: each endpoint has its
// own goroutine, timeout, back-off and status, so a slow or failing endpoint
// never delays or stops the others.
type HTTPSource struct {
	cfg       HTTPConfig
	client    *http.Client
	creds     credentials
	endpoints []*endpoint
	multi     bool
}

type endpoint struct {
	url     *url.URL
	name    string // redacted URL, safe to show
	short   string // host:port
	mu      sync.Mutex
	st      Status
	lastErr error
	mapper  *Mapper
}

// NewHTTPSource validates the URLs and reads the TLS and credential files.
func NewHTTPSource(urls []string, cfg HTTPConfig) (*HTTPSource, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = cfg.Interval * 8 / 10
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &HTTPSource{cfg: cfg, multi: len(urls) > 1}
	creds, tlsCfg, err := cfg.Auth.load()
	if err != nil {
		return nil, err
	}
	s.creds = creds
	s.client = &http.Client{
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}).DialContext,
			TLSClientConfig:     tlsCfg,
			MaxIdleConnsPerHost: 2,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true, // we decompress ourselves, under MaxBody
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("redirects are not followed") },
	}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("target %q: want an http:// or https:// URL of a /metrics endpoint", Redact(raw))
		}
		ep := &endpoint{url: u, name: Redact(raw), short: u.Host}
		ep.st = Status{Endpoint: ep.name, State: StatePending}
		if cfg.Mapping != nil {
			ep.mapper = NewMapper(*cfg.Mapping)
			ep.st.Preset = cfg.Mapping.Name
		}
		s.endpoints = append(s.endpoints, ep)
	}
	if len(s.endpoints) == 0 {
		return nil, errors.New("no target to scrape")
	}
	distinctPrefixes(s.endpoints)
	return s, nil
}

// distinctPrefixes gives every endpoint a target prefix no other endpoint
// has: host:port, or host:port/path when two share a host, or a #N suffix
// when the whole URL repeats. Two endpoints exposing the same target name
// would otherwise merge into one series with rows out of time order.
func distinctPrefixes(eps []*endpoint) {
	count := func(key func(*endpoint) string) map[string]int {
		n := map[string]int{}
		for _, ep := range eps {
			n[key(ep)]++
		}
		return n
	}
	hosts := count(func(ep *endpoint) string { return ep.url.Host })
	withPath := func(ep *endpoint) string { return ep.url.Host + strings.TrimSuffix(ep.url.Path, "/") }
	paths := count(withPath)
	seen := map[string]int{}
	for _, ep := range eps {
		switch {
		case hosts[ep.url.Host] == 1:
			ep.short = ep.url.Host
		case paths[withPath(ep)] == 1:
			ep.short = withPath(ep)
		default:
			seen[withPath(ep)]++
			ep.short = fmt.Sprintf("%s#%d", withPath(ep), seen[withPath(ep)])
		}
	}
}

// Redact hides credentials in a URL or URL-like string before it is shown
// anywhere (status lines, errors, every report format). Everything between
// the scheme and the last "@" before the query is replaced, whether or not
// the string parses: "user:pw@x@host" and "user:123/path@host" hide the
// whole user part. An "@" inside a path is redacted the same way: showing
// too little is safe, a password is not.
func Redact(raw string) string {
	rest, scheme := raw, ""
	if j := strings.Index(raw, "://"); j >= 0 {
		scheme, rest = raw[:j+3], raw[j+3:]
	}
	end := len(rest)
	if k := strings.IndexAny(rest, "?#"); k >= 0 {
		end = k
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return raw
	}
	return scheme + "REDACTED" + rest[at:]
}

// Statuses returns each endpoint's status.
func (s *HTTPSource) Statuses() []Status {
	out := make([]Status, len(s.endpoints))
	now := s.cfg.Now()
	for i, ep := range s.endpoints {
		ep.mu.Lock()
		st := ep.st
		st.Targets = append([]string(nil), ep.st.Targets...)
		ep.mu.Unlock()
		if st.State == StateUp && now.Sub(st.LastSuccess) > 3*s.cfg.Interval {
			st.State, st.Reason = StateStale, fmt.Sprintf("no successful scrape for %s", now.Sub(st.LastSuccess).Round(time.Second))
		}
		out[i] = st
	}
	return out
}

// Run scrapes every endpoint until ctx ends.
func (s *HTTPSource) Run(ctx context.Context, emit func(trace.Sample)) error {
	var wg sync.WaitGroup
	for _, ep := range s.endpoints {
		wg.Add(1)
		go func(ep *endpoint) {
			defer wg.Done()
			s.loop(ctx, ep, emit)
		}(ep)
	}
	wg.Wait()
	return nil
}

// maxBackoff bounds the wait after repeated failures.
const maxBackoff = 30 * time.Second

func (s *HTTPSource) loop(ctx context.Context, ep *endpoint, emit func(trace.Sample)) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		start := time.Now()
		samples, err := s.ScrapeOnce(ctx, ep)
		if ctx.Err() != nil {
			return
		}
		for _, smp := range samples {
			emit(smp)
		}
		wait := s.cfg.Interval - time.Since(start)
		if err != nil {
			ep.mu.Lock()
			n := ep.st.Failures
			ep.mu.Unlock()
			backoff := s.cfg.Interval
			for i := 1; i < n && backoff < maxBackoff; i++ {
				backoff *= 2
			}
			wait = min(backoff, max(maxBackoff, s.cfg.Interval)) - time.Since(start)
		}
		timer.Reset(max(wait, 0))
	}
}

// ScrapeOnce scrapes one endpoint now and maps the exposition; the status
// is updated either way.
func (s *HTTPSource) ScrapeOnce(ctx context.Context, ep *endpoint) ([]trace.Sample, error) {
	start := time.Now()
	fams, err := s.fetch(ctx, ep)
	now := s.cfg.Now()
	ep.mu.Lock()
	defer ep.mu.Unlock()
	ep.st.LastDuration = time.Since(start)
	if err == nil && ep.mapper == nil {
		var m Mapping
		if m, err = Detect(fams); err == nil {
			ep.mapper = NewMapper(m)
			ep.st.Preset = m.Name
		}
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err() // the stop cut this scrape short: not a failure of the endpoint
	}
	if err != nil {
		ep.st.State, ep.st.Reason, ep.lastErr = StateDown, err.Error(), err
		ep.st.Failures++
		return nil, err
	}
	samples := ep.mapper.Map(fams, now)
	if len(samples) == 0 {
		err = fmt.Errorf("%s: none of the %s metrics are exposed (missing %s)", ep.name, ep.mapper.m.Name, strings.Join(ep.mapper.Missing, ", "))
		ep.st.State, ep.st.Reason, ep.lastErr = StateDown, err.Error(), err
		ep.st.Failures++
		return nil, err
	}
	ep.st.State, ep.st.Reason, ep.lastErr, ep.st.Failures = StateUp, "", nil, 0
	if len(ep.mapper.Missing) > 0 {
		ep.st.Reason = "not exposed: " + strings.Join(ep.mapper.Missing, ", ")
	}
	if len(ep.mapper.Ignored) > 0 {
		if ep.st.Reason != "" {
			ep.st.Reason += "; "
		}
		ep.st.Reason += "ignored (not a limiter series): " + strings.Join(ep.mapper.Ignored, ", ")
	}
	ep.st.LastSuccess = now
	ep.st.Targets = ep.st.Targets[:0]
	for i := range samples {
		if s.multi {
			samples[i].Target = ep.short + "/" + samples[i].Target
		}
		ep.st.Targets = append(ep.st.Targets, samples[i].Target)
	}
	return samples, nil
}

// Scrape scrapes every endpoint once, in order (for tests and one-shot use).
func (s *HTTPSource) Scrape(ctx context.Context) ([]trace.Sample, []error) {
	var out []trace.Sample
	var errs []error
	for _, ep := range s.endpoints {
		smp, err := s.ScrapeOnce(ctx, ep)
		out = append(out, smp...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, errs
}

func (s *HTTPSource) fetch(ctx context.Context, ep *endpoint) (map[string]*dto.MetricFamily, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	u := *ep.url
	user := u.User
	u.User = nil
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ep.name, err)
	}
	req.Header.Set("Accept", acceptHeader)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("User-Agent", "limitscope")
	if !s.creds.apply(req) && user != nil {
		pw, _ := user.Password()
		req.SetBasicAuth(user.Username(), pw)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", ep.name, explain(err, ep.url.Host, s.cfg.Timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		hint := ""
		switch resp.StatusCode {
		case http.StatusNotFound:
			hint = " (is the path the metrics endpoint, usually /metrics?)"
		case http.StatusUnauthorized, http.StatusForbidden:
			hint = " (check the credentials flags)"
		}
		return nil, fmt.Errorf("%s: HTTP %s%s", ep.name, resp.Status, hint)
	}
	var body io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: the gzip body is corrupt: %v", ep.name, err)
		}
		defer zr.Close()
		body = zr
	}
	data, err := io.ReadAll(io.LimitReader(body, s.cfg.MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the body: %s", ep.name, explain(err, ep.url.Host, s.cfg.Timeout))
	}
	if int64(len(data)) > s.cfg.MaxBody {
		return nil, fmt.Errorf("%s: the exposition is larger than %d MiB (raise the body size limit)", ep.name, s.cfg.MaxBody>>20)
	}
	ep.mu.Lock()
	mp := ep.mapper
	ep.mu.Unlock()
	if mp != nil {
		m := mp.Mapping()
		data = m.Relevant(data)
	}
	return ParseExposition(data, ep.name)
}

// ParseExposition parses a Prometheus text exposition.
func ParseExposition(data []byte, name string) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a Prometheus text exposition: %v", name, err)
	}
	return fams, nil
}

// explain turns a transport error into a reason a person can act on,
// without the URL (which may carry credentials).
func explain(err error, host string, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("no complete answer within %s (raise the scrape timeout, or the target is overloaded)", timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("connection refused (is the service running and listening on %s?)", host)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot resolve %s", dnsErr.Name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before the body ended"
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
