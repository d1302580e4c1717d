package sim

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written as text in YAML and JSON ("20m",
// "1.5s"): the one duration type of scenario and parameter files. JSON also
// accepts a number of seconds.
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "2m" or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration (like \"20m\" or \"1.5s\")", s)
		}
		*d = Duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s is not a duration (like \"20m\" or \"1.5s\")", b)
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: a duration like \"20m\" or \"1.5s\" is expected", n.Line)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (like \"20m\" or \"1.5s\")", n.Line, s)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as a string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// Step changes the world at offset At from the start of the run. Fields left
// out keep their previous value.
type Step struct {
	At Duration `yaml:"at"`
	// Capacity is the downstream's concurrency capacity C(t): how many
	// requests it serves at once.
	Capacity *float64 `yaml:"capacity,omitempty"`
	// BaseLatency is the service time B(t) of one request on an idle
	// downstream (the median; noise is lognormal around it).
	BaseLatency *Duration `yaml:"base_latency,omitempty"`
	// Demand is the arrival rate of the pipeline, requests per second
	// (Poisson).
	Demand *float64 `yaml:"demand,omitempty"`
	// ErrorRate is the fraction of requests the downstream answers with a
	// fast error.
	ErrorRate *float64 `yaml:"error_rate,omitempty"`
}

// Downstream is the fixed part of the downstream model.
type Downstream struct {
	// LatencySigma is the σ of the lognormal service-time noise (default 0.25).
	LatencySigma float64 `yaml:"latency_sigma"`
	// Knee is how fast service time inflates once the backlog exceeds
	// capacity: with n requests in the system and capacity C, each request
	// started takes B·(1 + Knee·max(0, n/C − 1)). Memory, GC and lock
	// contention of a backlog make an overloaded server slower per request;
	// this is what makes latency degrade faster than linearly past the knee
	// (default 0.15, DefaultKnee; 0 is a pure queue).
	Knee float64 `yaml:"knee"`
	// ShedAt is the backlog bound as a multiple of capacity: a request
	// arriving when n ≥ ShedAt·C is refused at once with an error (default 8).
	ShedAt float64 `yaml:"shed_at"`
	// ErrorLatency is how long a shed or error response takes (default 1ms).
	ErrorLatency Duration `yaml:"error_latency"`
}

// DefaultKnee is the downstream's service-time inflation per capacity-worth
// of backlog; the closed-loop what-if model assumes the same.
const DefaultKnee = 0.15

// MaxWorkers bounds Client.Workers.
const MaxWorkers = 1 << 20

// Client is the pipeline in front of the downstream.
type Client struct {
	// Timeout is how long the client waits for a response before counting a
	// loss (the downstream keeps working on it) (default 1s).
	Timeout Duration `yaml:"timeout"`
	// Queue is how many requests may wait for a slot under the limit
	// (default 64); beyond it a request is deferred at once.
	Queue int `yaml:"queue"`
	// Deadline bounds one wait in that queue; an expired waiter is deferred
	// (default 100ms).
	Deadline Duration `yaml:"deadline"`
	// SampleWindow aggregates per-request RTTs before the adaptive limiters
	// see them (limiter.Windowed; default 100ms).
	SampleWindow Duration `yaml:"sample_window"`
	// Workers, when set, makes the pipeline a pool of that many workers
	// instead of an open Poisson stream: each sends one request, waits for
	// its answer (or its rejection), thinks for an exponential time of mean
	// workers/demand and sends the next, so in-flight never exceeds the
	// pool (a consumer with a fixed goroutine or thread pool).
	Workers int `yaml:"workers"`
}

// Scenario is a declarative simulation: a downstream, a pipeline, and a
// schedule of changes. Scenarios are data; see scenarios/*.yaml.
type Scenario struct {
	Name        string     `yaml:"name"`
	Description string     `yaml:"description"`
	Duration    Duration   `yaml:"duration"`
	Interval    Duration   `yaml:"interval"`
	Seed        uint64     `yaml:"seed"`
	Downstream  Downstream `yaml:"downstream"`
	Client      Client     `yaml:"client"`
	Schedule    []Step     `yaml:"schedule"`
	// Limiters names the shoot-out's contenders with their settings.
	Limiters []LimiterSpec `yaml:"limiters"`
}

// LimiterSpec is one contender of a shoot-out.
type LimiterSpec struct {
	Name string `yaml:"name"`
	// Kind is one of Kinds: fixed, aimd, gradient (limitscope's), gradient2
	// and vegas (Netflix's), envoy (Envoy's gradient controller) or vector
	// (Vector's adaptive request concurrency).
	Kind string `yaml:"kind"`
	// Limit is the fixed limit (kind fixed).
	Limit float64 `yaml:"limit"`
	// Cap is the static safety cap (0: none).
	Cap int `yaml:"cap"`
	// Smoothing overrides the gradient's smoothing.
	Smoothing float64 `yaml:"smoothing"`
}

//go:embed scenarios/*.yaml
var builtin embed.FS

// Builtin returns the names of the embedded scenarios.
func Builtin() []string {
	entries, _ := builtin.ReadDir("scenarios")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Load returns the embedded scenario of that name, or reads a YAML file.
func Load(nameOrPath string) (Scenario, error) {
	if b, err := builtin.ReadFile("scenarios/" + nameOrPath + ".yaml"); err == nil {
		return Parse(b, nameOrPath)
	}
	b, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Scenario{}, fmt.Errorf("scenario %q is neither built in (%s) nor a readable file", nameOrPath, strings.Join(Builtin(), ", "))
		}
		return Scenario{}, fmt.Errorf("reading scenario: %w", err)
	}
	return Parse(b, nameOrPath)
}

// Parse reads a scenario from YAML and checks it; name is used in messages.
func Parse(b []byte, name string) (Scenario, error) {
	var sc Scenario
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&sc); err != nil {
		return Scenario{}, fmt.Errorf("scenario %s: %w", name, err)
	}
	if err := sc.Normalise(); err != nil {
		return Scenario{}, fmt.Errorf("scenario %s: %w", name, err)
	}
	return sc, nil
}

// Normalise fills the defaults of a scenario built in code and checks it, as
// Parse does for a file; Run expects a normalised scenario.
func (sc *Scenario) Normalise() error {
	if sc.Duration <= 0 {
		return errors.New("duration must be positive")
	}
	if sc.Interval <= 0 {
		sc.Interval = Duration(time.Second)
	}
	d := &sc.Downstream
	if d.LatencySigma == 0 {
		d.LatencySigma = 0.25
	}
	if d.Knee == 0 {
		d.Knee = DefaultKnee
	}
	if d.ShedAt == 0 {
		d.ShedAt = 8
	}
	if d.ErrorLatency == 0 {
		d.ErrorLatency = Duration(time.Millisecond)
	}
	c := &sc.Client
	if c.Timeout == 0 {
		c.Timeout = Duration(time.Second)
	}
	if c.Queue == 0 {
		c.Queue = 64
	}
	if c.Deadline == 0 {
		c.Deadline = Duration(100 * time.Millisecond)
	}
	if c.SampleWindow == 0 {
		c.SampleWindow = Duration(100 * time.Millisecond)
	}
	if d.LatencySigma < 0 || d.Knee < 0 || d.ShedAt < 1 || c.Queue < 0 || c.Timeout < 0 || c.Workers < 0 {
		return errors.New("latency_sigma, knee, queue, timeout and workers must not be negative, shed_at must be at least 1")
	}
	if c.Workers > MaxWorkers {
		return fmt.Errorf("workers is %d; at most %d (a pool of workers is simulated one by one)", c.Workers, MaxWorkers)
	}
	if len(sc.Schedule) == 0 || sc.Schedule[0].At != 0 {
		return errors.New("the schedule must start with a step at 0s")
	}
	first := sc.Schedule[0]
	if first.Capacity == nil || first.BaseLatency == nil || first.Demand == nil {
		return errors.New("the first step must set capacity, base_latency and demand")
	}
	for i, st := range sc.Schedule {
		if i > 0 && st.At < sc.Schedule[i-1].At {
			return fmt.Errorf("step %d: steps must be in time order", i+1)
		}
		if st.Capacity != nil && *st.Capacity < 1 {
			return fmt.Errorf("step %d: capacity must be at least 1", i+1)
		}
		if st.BaseLatency != nil && *st.BaseLatency <= 0 {
			return fmt.Errorf("step %d: base_latency must be positive", i+1)
		}
		if st.Demand != nil && *st.Demand < 0 {
			return fmt.Errorf("step %d: demand must not be negative", i+1)
		}
		if st.ErrorRate != nil && (*st.ErrorRate < 0 || *st.ErrorRate > 1) {
			return fmt.Errorf("step %d: error_rate must be between 0 and 1", i+1)
		}
	}
	for i, l := range sc.Limiters {
		if !knownKind(l.Kind) {
			return fmt.Errorf("limiter %d (%s): kind must be one of %s", i+1, l.Name, strings.Join(Kinds, ", "))
		}
		if l.Kind == "fixed" && l.Limit < 1 {
			return fmt.Errorf("limiter %d (%s): a fixed limiter needs limit ≥ 1", i+1, l.Name)
		}
	}
	return nil
}

// world is the schedule's state at one time.
type world struct {
	capacity  float64
	base      time.Duration
	demand    float64
	errorRate float64
}

// at returns the world in effect at offset t, and the offset of the next step
// (or -1).
func (sc *Scenario) at(t time.Duration) (world, time.Duration) {
	var w world
	next := time.Duration(-1)
	for _, st := range sc.Schedule {
		if time.Duration(st.At) > t {
			next = time.Duration(st.At)
			break
		}
		if st.Capacity != nil {
			w.capacity = *st.Capacity
		}
		if st.BaseLatency != nil {
			w.base = time.Duration(*st.BaseLatency)
		}
		if st.Demand != nil {
			w.demand = *st.Demand
		}
		if st.ErrorRate != nil {
			w.errorRate = *st.ErrorRate
		}
	}
	return w, next
}
