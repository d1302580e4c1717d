package cmd

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/tui"
	"github.com/limitscope/limitscope/tune"
)

// jsonKeys are the JSON names of a struct's fields.
func jsonKeys(v any) []string {
	var out []string
	t := reflect.TypeOf(v)
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// limitscope help verdicts and help terms cover every verdict, column,
// statistic and evidence value the screens and reports show.
func TestHelpTopicsCoverEveryWord(t *testing.T) {
	verdicts, _, code := run(t, "", "help", "verdicts")
	if code != 0 {
		t.Fatal(code)
	}
	for _, c := range diagnose.Classes {
		if !strings.Contains(verdicts, string(c)+" (") {
			t.Errorf("help verdicts does not define %s", c)
		}
	}
	terms, _, code := run(t, "", "help", "terms")
	if code != 0 {
		t.Fatal(code)
	}
	var words []string
	words = append(words, tui.ColumnTitles()...)
	words = append(words, jsonKeys(diagnose.Stats{})...)
	words = append(words, jsonKeys(tune.Row{})...)
	words = append(words, jsonKeys(tune.Compared{})...) // the Δ and ratio keys are spelled Δ util, p99/base there
	for _, a := range tune.Algorithms {
		words = append(words, a.Names()...)
	}
	src, err := os.ReadFile("../diagnose/result.go") // the evidence values
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?:v\["|")([a-z][a-z0-9_]+)"\]? *[=:] *(?:decimal|float64)`).FindAllStringSubmatch(string(src), -1) {
		words = append(words, m[1])
	}
	words = append(words, "p99", "open loop", "closed loop", "Δ", "jitter", "pinned", "floor", "published")
	for _, w := range words {
		switch w {
		case "params", "verdict", "dropped", "rejected", "limit_mean", "limit_min", "limit_max", "in_flight_mean", "rtt_mean_ms", "rtt_min_first_ms", "rtt_min_last_ms",
			"delta_utilisation_pt", "p99_ratio", "p99_base_ratio":
			continue // plain words, or the series themselves (defined as trace columns)
		}
		spaced := strings.ReplaceAll(w, "_", " ")
		if !strings.Contains(terms, w) && !strings.Contains(terms, spaced) {
			t.Errorf("help terms does not define %q", w)
		}
	}
	if !strings.Contains(verdicts, "limitscope help terms") || !strings.Contains(terms, "limitscope --help") {
		t.Error("the topics must point at each other and at the exit codes")
	}
}
