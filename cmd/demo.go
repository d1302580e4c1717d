package cmd

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/demo"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/tui"
)

type demoOptions struct {
	io       *IOStreams
	args     []string
	addr     string
	headless bool
	dash     dashOptions
}

func newDemoCmd(ios *IOStreams, runF func(*demoOptions) error) *cobra.Command {
	o := &demoOptions{io: ios}
	c := &cobra.Command{
		Use:   "demo",
		Short: "The embedded default: real downstreams, our limiter, and the live dashboard",
		Long: `Start two real HTTP downstreams on 127.0.0.1 whose capacity and latency change
at run time, a load generator, our gradient limiter (limiter.Gate) in front of
each exporting /metrics on loopback, and the dashboard scraping that endpoint
over real HTTP, exactly as watch does. Keys change the world so every verdict
can be produced live:

  d  deploy: capacity ×2              n  noisy neighbour: capacity ×0.6
  w  the first downstream falls sick  i  idle: load ×0.1 (pipeline-bound)
  o  smoothing 1.0 (oscillating)      r  reset the world

--headless only serves the endpoint and prints its URL (watch it from
another terminal).`,
		Example: `  limitscope demo
  limitscope demo --chart ascii
  limitscope demo --headless --addr 127.0.0.1:9464 &
  limitscope watch http://127.0.0.1:9464/metrics`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runDemo(ios, o)
		},
	}
	c.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "listen address of the /metrics endpoint (loopback unless you say otherwise)")
	c.Flags().BoolVar(&o.headless, "headless", false, "only serve: print the /metrics URL and run until interrupted")
	o.dash.register(c, 30*time.Second)
	c.Flags().Lookup("zoom").DefValue = "2m0s"
	o.dash.zoom = 2 * time.Minute
	return c
}

func runDemo(ios *IOStreams, o *demoOptions) error {
	board, err := o.dash.board(ios)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	w, err := demo.Start(ctx, o.addr, demo.DefaultDownstreams)
	if err != nil {
		return usageError(err)
	}
	defer w.Close()
	fmt.Fprintf(ios.ErrOut, "serving %s (downstreams: payments, search)\n", w.MetricsURL)
	if o.headless {
		fmt.Fprintf(ios.Out, "serving %s (downstreams: payments, search); keys on stdin, one per line, or POST %s; interrupt to stop\n",
			w.MetricsURL, strings.TrimSuffix(w.MetricsURL, "/metrics")+"/control/KEY")
		go func() {
			sc := bufio.NewScanner(ios.In)
			for sc.Scan() {
				key := strings.TrimSpace(sc.Text())
				if key == "" {
					continue
				}
				if msg, ok := w.Do(key); ok {
					fmt.Fprintln(ios.Out, msg)
				} else {
					fmt.Fprintf(ios.ErrOut, "unknown key %q\n", safetext.Echo(key))
				}
			}
		}()
		<-ctx.Done()
		return nil
	}
	m := scrape.Presets["limitscope"]
	src, err := scrape.NewHTTPSource([]string{w.MetricsURL}, scrape.HTTPConfig{Interval: time.Second, Mapping: &m})
	if err != nil {
		return err
	}
	refs := map[string]tui.Refs{}
	for _, d := range demo.DefaultDownstreams {
		refs[d.Name] = tui.Refs{MinLimit: limiter.DefaultMinLimit, Cap: float64(d.Cap)}
	}
	var actions []tui.Action
	for _, a := range w.Actions() {
		actions = append(actions, tui.Action{Key: a.Key, Help: a.Help, Do: a.Do})
	}
	return runLive(ctx, ios, &o.dash, src, board.Push, tui.Options{Title: "demo " + w.MetricsURL, Board: board, Actions: actions, Refs: refs})
}
