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

// Start runs src in the background, handing each sample to sink, until ctx
// ends or the source returns by itself (done is closed then). stop cancels
// the source and waits for it to return; call it once the consumer is done.
func Start(ctx context.Context, src Source, sink func(trace.Sample)) (done <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		_ = src.Run(ctx, sink) // a source reports its failures in Statuses
	}()
	return ch, func() {
		cancel()
		<-ch
	}
}

// Pump runs src into sink until ctx ends or the source returns, and calls
// tick every period meanwhile (progress, flushing). A tick error stops the
// source and is returned. Pump returns once the source has stopped.
func Pump(ctx context.Context, src Source, sink func(trace.Sample), period time.Duration, tick func(now time.Time) error) error {
	done, stop := Start(ctx, src, sink)
	defer stop()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-done:
			return nil
		case now := <-t.C:
			if err := tick(now); err != nil {
				return err
			}
		}
	}
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
	// Step is how far apart a Prometheus server's readings are asked for
	// (zero for a /metrics endpoint, read at the interval given, and
	// before the step is known). StepFrom says where it came from, in a
	// phrase (StepGiven, StepMeasured, …).
	Step     time.Duration
	StepFrom string
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
	// Step and StepFrom are the first endpoint's that has a step.
	Step     time.Duration
	StepFrom string
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
		if m.Step == 0 {
			m.Step, m.StepFrom = s.Step, s.StepFrom
		}
	}
	return m
}
