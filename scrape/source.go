package scrape

import (
	"context"
	"fmt"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// Source is anything that yields Samples: live endpoints, a Prometheus
// server, a trace file. Run emits until the context ends or the source is
// exhausted (then it returns nil); emit may be called from several
// goroutines at once. Statuses describes each endpoint for the dashboard.
type Source interface {
	Run(ctx context.Context, emit func(trace.Sample)) error
	Statuses() []Status
}

// State of one endpoint.
type State string

// Endpoint states.
const (
	StatePending State = "pending" // not scraped yet
	StateUp      State = "up"
	StateDown    State = "down"  // the last attempt failed; Reason says why
	StateStale   State = "stale" // no successful scrape for 3 intervals
)

// Status is one endpoint's health as a person needs it.
type Status struct {
	Endpoint     string
	State        State
	Reason       string
	LastSuccess  time.Time
	LastDuration time.Duration
	Failures     int
	Targets      []string
	Preset       string
}

// ConfigError is a configuration value a source cannot use. Field names the
// configuration field (Auth.CAFile, PromConfig.Selector); a command maps it
// to its own flag. Value, when set, is the offending value (already safe to
// print: URLs redacted).
type ConfigError struct {
	Field string
	Value string
	Err   error
}

func (e *ConfigError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s %q: %v", e.Field, e.Value, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Field, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Summary counts a set of endpoint statuses, for one-line reports.
type Summary struct {
	Up, Down, Stale int
	// Targets is how many targets the endpoints expose.
	Targets int
	// Reasons are the down endpoints' reasons, in order (raw: sanitise
	// before printing).
	Reasons []string
	// LastSuccess is the latest successful scrape of any endpoint.
	LastSuccess time.Time
}

// Summarize counts statuses by state.
func Summarize(sts []Status) Summary {
	var m Summary
	for _, s := range sts {
		m.Targets += len(s.Targets)
		switch s.State {
		case StateUp:
			m.Up++
		case StateDown:
			m.Down++
			m.Reasons = append(m.Reasons, s.Reason)
		case StateStale:
			m.Stale++
		}
		if s.LastSuccess.After(m.LastSuccess) {
			m.LastSuccess = s.LastSuccess
		}
	}
	return m
}
