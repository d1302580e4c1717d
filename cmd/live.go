package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

// liveOptions are the flags every live source shares (watch, record,
// diagnose of URLs).
type liveOptions struct {
	interval, timeout           time.Duration
	maxBody                     int64
	preset                      string
	limitMetric, inFlightMetric string
	rttMinMetric, rttMetric     string
	rttUnit, targetLabel        string
	caFile                      string
	insecure                    bool
	tokenFile                   string
	basicUser, basicPassFile    string
	prom, selector              string
	backfill                    time.Duration
	until                       string
	promQueries                 []string
	// intervalSet reports whether --interval was given: with --prom an
	// unset one is the scrape interval, read from the server
	intervalSet func() bool
}

func (o *liveOptions) register(c *cobra.Command) {
	f := c.Flags()
	f.DurationVar(&o.interval, "interval", time.Second, "scrape or query interval (with --prom: default the limit series' scrape interval, read from the server)")
	o.intervalSet = func() bool { return f.Changed("interval") }
	f.DurationVar(&o.timeout, "timeout", 0, "per-scrape timeout (default 80% of the interval)")
	f.Int64Var(&o.maxBody, "max-body", scrape.DefaultMaxBody, "largest exposition accepted, bytes (after decompression)")
	o.registerMapping(c, "auto")
	f.StringVar(&o.caFile, "ca-file", "", "PEM CA bundle to verify https targets")
	f.BoolVar(&o.insecure, "insecure-skip-verify", false, "do not verify TLS certificates (unsafe)")
	f.StringVar(&o.tokenFile, "bearer-token-file", "", "file holding a bearer token")
	f.StringVar(&o.basicUser, "basic-auth-user", "", "basic-auth user name")
	f.StringVar(&o.basicPassFile, "basic-auth-password-file", "", "file holding the basic-auth password")
	f.StringVar(&o.prom, "prom", "", "read a fleet from this Prometheus server's HTTP API instead of scraping targets")
	f.StringVar(&o.selector, "selector", "", `with --prom: label matchers for every query, e.g. '{job="api"}'`)
	f.DurationVar(&o.backfill, "backfill", 0, "with --prom: first load this much history with query_range")
	f.StringVar(&o.until, "until", "", "with --prom and --backfill (diagnose, record): read the history ending at this time (RFC 3339, or a duration ago: 90m) and stop, instead of following live")
	f.StringArrayVar(&o.promQueries, "prom-query", nil, "with --prom: explicit PromQL per series, FIELD=QUERY (fields: "+columnList()+")")
}

// registerMapping registers the flags that choose the limiter's metric
// names: a preset or a custom mapping (watch, record, diagnose, rules).
func (o *liveOptions) registerMapping(c *cobra.Command, defPreset string) {
	f := c.Flags()
	f.StringVar(&o.preset, "preset", defPreset, "metric names of the limiter: "+strings.Join(scrape.PresetNames(), ", "))
	f.StringVar(&o.limitMetric, "limit-metric", "", `custom mapping: the limit metric, e.g. 'my_limit{pool="db"}'`)
	f.StringVar(&o.inFlightMetric, "in-flight-metric", "", "custom mapping: the in-flight metric")
	f.StringVar(&o.rttMinMetric, "rtt-min-metric", "", "custom mapping: the min-RTT metric")
	f.StringVar(&o.rttMetric, "rtt-metric", "", "custom mapping: the RTT metric (gauge, or histogram/summary reduced to the interval mean)")
	f.StringVar(&o.rttUnit, "rtt-unit", "s", "custom mapping: unit of the RTT metrics (s, ms, us, ns)")
	f.StringVar(&o.targetLabel, "target-label", "", "label whose value names each limiter (splits one endpoint into many targets)")
	_ = c.RegisterFlagCompletionFunc("preset", cobra.FixedCompletions(scrape.PresetNames(), cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("rtt-unit", cobra.FixedCompletions([]string{"s", "ms", "us", "ns"}, cobra.ShellCompDirectiveNoFileComp))
}

// columnList names every trace field, for help and errors.
func columnList() string {
	var names []string
	for _, f := range trace.Columns() {
		names = append(names, f.Name())
	}
	return strings.Join(names, ", ")
}

// mapping returns the chosen mapping, or nil for auto-detection.
func (o *liveOptions) mapping() (*scrape.Mapping, error) {
	custom := o.limitMetric != "" || o.inFlightMetric != "" || o.rttMinMetric != "" || o.rttMetric != ""
	var m scrape.Mapping
	switch {
	case custom:
		if o.limitMetric == "" {
			return nil, fmt.Errorf("--limit-metric: a custom mapping needs at least the limit metric")
		}
		unit, err := scrape.ParseUnit(o.rttUnit)
		if err != nil {
			return nil, fmt.Errorf("--rtt-unit: %w", err)
		}
		m = scrape.Mapping{Name: "custom", KindsUnknown: true}
		for _, x := range []struct {
			flag, val string
			field     trace.Field
			kind      scrape.Kind
			unit      scrape.Unit
		}{
			{"--limit-metric", o.limitMetric, trace.FieldLimit, scrape.Gauge, 0},
			{"--in-flight-metric", o.inFlightMetric, trace.FieldInFlight, scrape.Gauge, 0},
			{"--rtt-min-metric", o.rttMinMetric, trace.FieldRTTMin, scrape.Gauge, unit},
			{"--rtt-metric", o.rttMetric, trace.FieldRTT, scrape.Mean, unit},
		} {
			if x.val == "" {
				continue
			}
			mt, err := scrape.ParseMatcher(x.val)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", x.flag, err)
			}
			m.Specs = append(m.Specs, scrape.Spec{Field: x.field, Match: mt, Kind: x.kind, Unit: x.unit})
		}
	case o.preset == "auto" || o.preset == "":
		if o.targetLabel != "" {
			return nil, fmt.Errorf("--target-label needs --preset or a custom mapping (auto-detection picks the preset's own label)")
		}
		return nil, nil
	default:
		p, ok := scrape.Presets[o.preset]
		if !ok {
			return nil, fmt.Errorf("--preset %q: use one of %s", o.preset, strings.Join(scrape.PresetNames(), ", "))
		}
		m = p
	}
	if o.targetLabel != "" {
		m.TargetLabels = []string{o.targetLabel}
	}
	return &m, nil
}

// auth is the TLS and credential flags, for /metrics endpoints and --prom
// alike.
func (o *liveOptions) auth() scrape.Auth {
	return scrape.Auth{CAFile: o.caFile, InsecureSkipVerify: o.insecure, BearerTokenFile: o.tokenFile,
		BasicAuthUser: o.basicUser, BasicAuthPasswordFile: o.basicPassFile}
}

// intervalGiven reports whether --interval was given (options built
// without the flag set take it as given).
func (o *liveOptions) intervalGiven() bool { return o.intervalSet == nil || o.intervalSet() }

// stepOrigin says where a --prom source's step came from (the phrase a
// status carries), naming the flag that sets it.
func stepOrigin(from string) string {
	if from == scrape.StepGiven {
		return "--interval"
	}
	return from + "; --interval overrides it"
}

// source builds the live source for URLs or --prom.
func (o *liveOptions) source(urls []string) (scrape.Source, error) {
	if o.interval <= 0 {
		return nil, usageError(fmt.Errorf("--interval %v: must be positive", o.interval))
	}
	m, err := o.mapping()
	if err != nil {
		return nil, usageError(err)
	}
	if o.prom != "" {
		if len(urls) > 0 {
			return nil, usageError(fmt.Errorf("--prom reads from Prometheus: give no target URLs with it"))
		}
		queries := map[trace.Field]string{}
		for _, q := range o.promQueries {
			name, expr, ok := strings.Cut(q, "=")
			f, known := trace.ParseField(strings.TrimSpace(name))
			if !ok || !known || strings.TrimSpace(expr) == "" {
				return nil, usageError(fmt.Errorf("--prom-query %q: want FIELD=PROMQL with FIELD one of %s", q, columnList()))
			}
			queries[f] = expr
		}
		step := o.interval
		if !o.intervalGiven() {
			step = 0 // the scrape interval: a finer step repeats readings
		}
		until, err := o.untilTime(time.Now())
		if err != nil {
			return nil, usageError(err)
		}
		src, err := scrape.NewPromSource(scrape.PromConfig{URL: o.prom, Selector: o.selector, Mapping: m, Queries: queries, Interval: step, Backfill: o.backfill, Until: until, Timeout: o.timeout, Auth: o.auth()})
		if err != nil {
			return nil, usageError(asFlagError(err))
		}
		return src, nil
	}
	if o.until != "" {
		return nil, usageError(fmt.Errorf("--until reads history from Prometheus: it needs --prom (a /metrics endpoint has only its present)"))
	}
	if len(urls) == 0 {
		return nil, usageError(fmt.Errorf("name at least one /metrics URL, or --prom URL"))
	}
	src, err := scrape.NewHTTPSource(urls, scrape.HTTPConfig{
		Interval: o.interval, Timeout: o.timeout, MaxBody: o.maxBody, Mapping: m, Auth: o.auth(),
	})
	if err != nil {
		return nil, usageError(asFlagError(err))
	}
	return src, nil
}

// untilTime reads --until: an RFC 3339 time, or a duration before now
// ("90m": an hour and a half ago); zero when not given.
func (o *liveOptions) untilTime(now time.Time) (time.Time, error) {
	if o.until == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, o.until); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(o.until); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--until %q: want an RFC 3339 time (2026-12-02T14:30:00Z) or a duration ago (90m)", o.until)
}

// past reports whether the source reads a past span and stops (--until).
func (o *liveOptions) past() bool { return o.until != "" }

// flagOf maps the scrape configuration fields to the flags that set them.
var flagOf = map[string]string{
	"Auth.CAFile":                "--ca-file",
	"Auth.BearerTokenFile":       "--bearer-token-file",
	"Auth.BasicAuthPasswordFile": "--basic-auth-password-file",
	"PromConfig.URL":             "--prom",
	"PromConfig.Selector":        "--selector",
	"PromConfig.Until":           "--until",
}

// asFlagError names the flag behind a scrape configuration error, so the
// user reads "--ca-file x.pem: no PEM certificate in it".
func asFlagError(err error) error {
	var ce *scrape.ConfigError
	if errors.As(err, &ce) {
		if flag, ok := flagOf[ce.Field]; ok {
			if ce.Value != "" {
				return fmt.Errorf("%s %q: %w", flag, ce.Value, ce.Err)
			}
			return fmt.Errorf("%s: %w", flag, ce.Err)
		}
	}
	return err
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// collectLive runs a live source for d and returns what it yielded.
func collectLive(io *IOStreams, o *liveOptions, urls []string, d time.Duration) ([]trace.Sample, error) {
	src, err := o.source(urls)
	if err != nil {
		return nil, err
	}
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	if !o.past() {
		// a past span (--until) ends when it is read
		var cancel2 context.CancelFunc
		ctx, cancel2 = context.WithTimeout(ctx, d)
		defer cancel2()
	}
	var mu sync.Mutex
	var out []trace.Sample
	sink := func(s trace.Sample) {
		mu.Lock()
		out = append(out, s)
		mu.Unlock()
	}
	start := time.Now()
	_ = scrape.Pump(ctx, src, sink, max(time.Second, d/20), func(time.Time) error {
		mu.Lock()
		n := len(out)
		mu.Unlock()
		if o.past() {
			fmt.Fprintf(io.ErrOut, "reading %s of history until %s: %d samples, %s\n", o.backfill, o.until, n, report.StatusLine(src.Statuses()))
		} else {
			fmt.Fprintf(io.ErrOut, "scraping %s/%s: %d samples, %s\n", time.Since(start).Round(time.Second), d, n, report.StatusLine(src.Statuses()))
		}
		return nil
	})
	if len(out) == 0 {
		span := "in " + d.String()
		if o.past() {
			span = fmt.Sprintf("in the %s until %s", o.backfill, o.until)
		}
		return nil, &ExitError{Code: ExitNoData, Err: fmt.Errorf("no samples %s: %s", span, report.StatusLine(src.Statuses()))}
	}
	return out, nil
}
