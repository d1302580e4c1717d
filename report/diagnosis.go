// Package report is where limitscope's headless output is rendered: the
// diagnosis in six formats (text, JSON, Markdown, JUnit, GitHub annotations,
// HTML with SVG charts), the tune sweep and simulate shoot-out tables and
// JSON, the plain line-per-sample output for pipes, progress and status
// lines, and the number and sparkline formatting they share. Packages that
// decide (diagnose, tune, limiter/sim) never print; commands wire flags to
// these renderers. Every string from input goes through safetext for its
// output kind.
package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strings"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// Schema is the JSON report's schema name.
const Schema = "limitscope.diagnosis/v1"

// Report is a diagnosis of every target of one source, ready to render.
type Report struct {
	Schema   string            `json:"schema"`
	Source   string            `json:"source"`
	Targets  []diagnose.Result `json:"targets"`
	ExitCode int               `json:"exit_code"`
	// FailOn are the classes that fail the run.
	FailOn []diagnose.Class `json:"fail_on"`
	// Warnings are what reading the input warned of (a truncated last
	// line, a count column that reads as a running total): what the
	// verdicts may rest on that the input did not say plainly.
	Warnings []string `json:"warnings,omitempty"`
	// Series holds each target's samples for the HTML charts.
	Series map[string][]trace.Sample `json:"-"`
	// Limits holds each target's limit values for the text sparkline.
	Limits map[string][]float64 `json:"-"`
	// Color allows ANSI colour in the text report.
	Color bool `json:"-"`
}

// NewReport builds a report and its exit code.
func NewReport(source string, results []diagnose.Result, series map[string][]trace.Sample, failOn []diagnose.Class) *Report {
	if failOn == nil {
		failOn = diagnose.DefaultFailOn
	}
	r := &Report{Schema: Schema, Source: source, Targets: results, Series: series, FailOn: failOn}
	r.ExitCode = diagnose.ExitCode(r.Targets, r.FailOn)
	return r
}

// StatsLine is a target's load statistics in one line: utilisation, the
// rejected share of demand and the loss and rejection counts — what says
// whether the limit is the binding constraint. "" when none was measured.
func StatsLine(st diagnose.Stats) string {
	var parts []string
	if st.Utilisation > 0 {
		parts = append(parts, fmt.Sprintf("utilisation %.0f%% (in-flight / limit)", 100*st.Utilisation))
	}
	if st.RejectedShare != nil {
		parts = append(parts, fmt.Sprintf("rejected share %s of demand", Percent(*st.RejectedShare)))
	}
	if st.Rejected > 0 || st.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s rejected, %s dropped", Number(st.Rejected), Number(st.Dropped)))
	}
	if r := st.Repeats(); r != "" {
		parts = append(parts, r)
	}
	return strings.Join(parts, ", ")
}

// Percent prints a share as a percentage with the precision it needs: 0%,
// 0.4%, 3.1%, 25%.
func Percent(share float64) string {
	p := 100 * share
	switch {
	case p == 0:
		return "0%"
	case p < 10:
		return Trim2(math.Round(p*10)/10, "%")
	}
	return fmt.Sprintf("%.0f%%", p)
}

// Failing reports whether a target's verdict or any finding is a fail-on
// class, and which.
func (r *Report) Failing(t diagnose.Result) []diagnose.Class { return diagnose.Failing(t, r.FailOn) }

// Formats lists the report formats.
var Formats = []string{"text", "json", "markdown", "junit", "github", "html"}

// ParseFormat reads a report format name ("md" is markdown), naming the
// formats when it is none of them.
func ParseFormat(s string) (string, error) {
	if s == "md" {
		return "markdown", nil
	}
	for _, f := range Formats {
		if f == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown report format %q: use one of %s", s, strings.Join(Formats, ", "))
}

// Render writes the report in format to w. For github, summaryPath (the
// $GITHUB_STEP_SUMMARY file, or "") receives the Markdown report appended.
func (r *Report) Render(w io.Writer, format string, summary io.Writer) error {
	format, err := ParseFormat(format)
	if err != nil {
		return err
	}
	switch format {
	case "text":
		return r.Text(w)
	case "json":
		return r.JSON(w)
	case "markdown":
		return r.Markdown(w)
	case "junit":
		return r.JUnit(w)
	case "github":
		return r.GitHub(w, summary)
	case "html":
		return r.HTML(w)
	}
	return nil
}

// JSON writes the limitscope.diagnosis/v1 document (no raw control or
// bidirectional runes: they are \u escapes, decoding to the same strings).
func (r *Report) JSON(w io.Writer) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(safetext.JSON(buf.Bytes()))
	return err
}

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws values as width block characters (each the mean of its
// share of the values), scaled from 0 to their max, so a limit moving
// between 8 and 9 looks like the small change it is (values below 0 scale
// from their min instead).
func Sparkline(values []float64, width int) string {
	if len(values) == 0 || width <= 0 {
		return ""
	}
	if width > len(values) {
		width = len(values)
	}
	buckets := make([]float64, width)
	for i := range buckets {
		a, b := i*len(values)/width, (i+1)*len(values)/width
		sum := 0.0
		for _, v := range values[a:b] {
			sum += v
		}
		buckets[i] = sum / float64(b-a)
		if math.IsInf(sum, 0) {
			// limits near the float64 range (1e308 is a valid CSV
			// value) overflow the sum: it is taken scaled by a power of
			// two, which rounds as the plain sum does (a constant series
			// stays one level)
			scale := math.Ldexp(1, -bits.Len(uint(b-a)))
			sum = 0
			for _, v := range values[a:b] {
				sum += v * scale
			}
			buckets[i] = sum / (float64(b-a) * scale)
		}
	}
	lo, hi := 0.0, math.Inf(-1)
	for _, v := range buckets {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	var sb strings.Builder
	for _, v := range buckets {
		// halves: hi − lo overflows where lo is far below 0
		f := 0.0
		if span := hi/2 - lo/2; span > 0 {
			f = (v/2 - lo/2) / span
		}
		if !(f >= 0) { // NaN too: an index from NaN is undefined
			f = 0
		}
		sb.WriteRune(sparkRunes[int(math.Min(f, 1)*float64(len(sparkRunes)-1))])
	}
	return sb.String()
}

func limits(series []trace.Sample) []float64 {
	out := make([]float64, 0, len(series))
	for _, s := range series {
		if s.Has(trace.FieldLimit) {
			out = append(out, s.Limit)
		}
	}
	return out
}

func ansi(on bool, code, s string) string {
	if !on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func classColor(c diagnose.Class) string {
	switch diagnose.SeverityOf(c) {
	case diagnose.SevCritical:
		return "1;31"
	case diagnose.SevWarning:
		return "1;33"
	case diagnose.SevInfo:
		return "1;36"
	}
	if c == diagnose.Healthy {
		return "1;32"
	}
	return "2"
}

// ClockLayout is the time layout of the findings of a trace from a to b:
// the time of day where the trace keeps to one UTC day, with the date where
// it spans more (two recordings joined a month apart printed the same
// times twice).
func ClockLayout(a, b time.Time) string {
	if !SpansDays(a, b) {
		return "15:04:05"
	}
	return "2006-01-02 15:04:05"
}

// SpansDays reports whether a and b lie on different UTC days: where times
// of day alone would repeat.
func SpansDays(a, b time.Time) bool {
	a, b = a.UTC(), b.UTC()
	return a.Year() != b.Year() || a.YearDay() != b.YearDay()
}

func span(a, b time.Time) string {
	if a.IsZero() {
		return "-"
	}
	return a.Format(time.RFC3339) + " – " + b.Format(time.RFC3339)
}

// confidenceOf is the confidence with its count, "0.06 (1 of 17 windows)",
// or "0.00" where nothing was judged: every report writes it so.
func confidenceOf(t diagnose.Result) string {
	if t.Stats.JudgedWindows == 0 {
		return fmt.Sprintf("%.2f", t.Confidence)
	}
	return fmt.Sprintf("%.2f (%d of %d windows)", t.Confidence, t.VerdictWindows, t.Stats.JudgedWindows)
}

// writeWarnings writes what reading the input warned of, a line each, for
// the text reports.
func writeWarnings(w io.Writer, warnings []string) {
	for _, m := range warnings {
		fmt.Fprintf(w, "warning: %s\n", safetext.Terminal(m))
	}
}

// Text writes the compact per-target report.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "limitscope diagnose: %s\n", safetext.Terminal(r.Source))
	writeWarnings(&b, r.Warnings)
	for _, t := range r.Targets {
		badge := strings.ToUpper(string(t.Class))
		fmt.Fprintf(&b, "\n%s  %s  confidence %s, %d samples, %s\n", safetext.Terminal(t.Target), ansi(r.Color, classColor(t.Class), badge), confidenceOf(t), t.Samples, span(t.Start, t.End))
		l := r.Limits[t.Target]
		if l == nil {
			l = limits(r.Series[t.Target])
		}
		if len(l) > 0 {
			fmt.Fprintf(&b, "  limit %s  mean %.1f, range %.1f – %.1f\n", Sparkline(l, 48), t.Stats.LimitMean, t.Stats.LimitMin, t.Stats.LimitMax)
		}
		if st := StatsLine(t.Stats); st != "" {
			fmt.Fprintf(&b, "  %s\n", st)
		}
		clock := ClockLayout(t.Start, t.End)
		for _, f := range t.Findings {
			fmt.Fprintf(&b, "  %s – %s  %s (%s): %s\n", f.Start.UTC().Format(clock), f.End.UTC().Format(clock), ansi(r.Color, classColor(f.Class), string(f.Class)), f.Severity, f.Evidence.Summary)
			if f.Class != diagnose.Healthy {
				fmt.Fprintf(&b, "      → %s\n", safetext.Terminal(f.Recommendation))
			}
		}
		for _, u := range t.Unreachable {
			fmt.Fprintf(&b, "  cannot reach %s: %s\n", u.Class, u.Reason)
		}
	}
	fmt.Fprintf(&b, "\nexit %d%s\n", r.ExitCode, r.exitWhy())
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) exitWhy() string {
	switch r.ExitCode {
	case diagnose.ExitFailed:
		return fmt.Sprintf(": a fail-on class was found (%s)", joinClasses(r.FailOn))
	case diagnose.ExitNoVerdict:
		if len(r.Targets) == 0 {
			// a header and nothing else (a --target no row names is a usage error)
			return ": nothing could be evaluated: the input holds no samples"
		}
		return ": nothing could be evaluated"
	}
	return fmt.Sprintf(": no fail-on class (%s)", joinClasses(r.FailOn))
}

func joinClasses(cs []diagnose.Class) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ",")
}

var mdIcon = map[diagnose.Severity]string{diagnose.SevCritical: "🔴", diagnose.SevWarning: "🟠", diagnose.SevInfo: "🔵", diagnose.SevOK: "🟢", diagnose.SevNone: "⚪"}

// Markdown writes a report for a pull-request comment or CI step summary.
func (r *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## limitscope diagnosis: %s\n\n", safetext.Markdown(r.Source))
	for _, m := range r.Warnings {
		fmt.Fprintf(&b, "> ⚠️ warning: %s\n\n", safetext.Markdown(m))
	}
	b.WriteString("| target | verdict | confidence | samples | span |\n|---|---|---|---|---|\n")
	for _, t := range r.Targets {
		fmt.Fprintf(&b, "| %s | %s `%s` | %s | %d | %s |\n", safetext.Markdown(t.Target), mdIcon[diagnose.SeverityOf(t.Class)], t.Class, confidenceOf(t), t.Samples, span(t.Start, t.End))
	}
	for _, t := range r.Targets {
		fmt.Fprintf(&b, "\n### %s — `%s`\n\n", safetext.Markdown(t.Target), t.Class)
		if st := StatsLine(t.Stats); st != "" {
			fmt.Fprintf(&b, "%s\n\n", st)
		}
		for _, f := range t.Findings {
			fmt.Fprintf(&b, "- %s **%s** (%s), %s: %s", mdIcon[f.Severity], f.Class, f.Severity, span(f.Start, f.End), safetext.Markdown(f.Evidence.Summary))
			if f.Class != diagnose.Healthy {
				fmt.Fprintf(&b, "  \n  → %s", safetext.Markdown(f.Recommendation))
			}
			b.WriteString("\n")
		}
		for _, u := range t.Unreachable {
			fmt.Fprintf(&b, "- cannot reach `%s`: %s\n", u.Class, safetext.Markdown(u.Reason))
		}
	}
	fmt.Fprintf(&b, "\nExit code %d%s.\n", r.ExitCode, safetext.Markdown(r.exitWhy()))
	_, err := io.WriteString(w, b.String())
	return err
}

type junitSuites struct {
	XMLName xml.Name   `xml:"testsuites"`
	Suites  []junitSet `xml:"testsuite"`
}

type junitSet struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
	// SystemErr holds the input's warnings, one a line.
	SystemErr string `xml:"system-err,omitempty"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnit writes one test case per target; fail-on verdicts are failures and
// targets without data are skipped. Each case's text opens with the verdict
// and its confidence, as the text report's first line does.
func (r *Report) JUnit(w io.Writer) error {
	set := junitSet{Name: safetext.XML("limitscope diagnose " + r.Source)}
	for _, t := range r.Targets {
		c := junitCase{Name: safetext.XML(t.Target), Classname: "limitscope.diagnose"}
		lines := []string{fmt.Sprintf("verdict %s, confidence %s", t.Class, confidenceOf(t))}
		if st := StatsLine(t.Stats); st != "" {
			lines = append(lines, st)
		}
		for _, f := range t.Findings {
			lines = append(lines, fmt.Sprintf("%s %s (%s): %s → %s", span(f.Start, f.End), f.Class, f.Severity, f.Evidence.Summary, f.Recommendation))
		}
		body := safetext.XML(strings.Join(lines, "\n"))
		if failing := r.Failing(t); len(failing) > 0 {
			c.Failure = &junitFailure{Message: safetext.XML(fmt.Sprintf("%s: %s", t.Target, joinClasses(failing))), Type: string(failing[0]), Body: body}
			set.Failures++
		} else if t.Class == diagnose.Insufficient {
			c.Skipped = &junitSkipped{Message: "insufficient data"}
			set.Skipped++
		} else {
			c.SystemOut = body
		}
		set.Cases = append(set.Cases, c)
	}
	set.Tests = len(set.Cases)
	if len(r.Warnings) > 0 {
		set.SystemErr = safetext.XML("warning: " + strings.Join(r.Warnings, "\nwarning: "))
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSet{set}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// MaxAnnotations bounds the workflow-command annotations of one run (GitHub
// shows at most 10 per step).
const MaxAnnotations = 10

// GitHub writes workflow-command annotations (errors for fail-on classes,
// warnings and notices for the rest, most severe first, at most 10) and
// appends the Markdown report to summary when it is not nil.
func (r *Report) GitHub(w io.Writer, summary io.Writer) error {
	type ann struct {
		level string
		rank  int
		text  string
	}
	var anns []ann
	for _, m := range r.Warnings {
		anns = append(anns, ann{"warning", 1, fmt.Sprintf("::warning title=limitscope input::%s\n", safetext.GitHubMessage(m))})
	}
	for _, t := range r.Targets {
		failing := map[diagnose.Class]bool{}
		for _, c := range r.Failing(t) {
			failing[c] = true
		}
		for _, f := range t.Findings {
			if f.Class == diagnose.Healthy {
				continue
			}
			level, rk := "notice", 0
			switch {
			case failing[f.Class]:
				level, rk = "error", 2
			case f.Severity == diagnose.SevWarning || f.Severity == diagnose.SevCritical:
				level, rk = "warning", 1
			}
			title := safetext.GitHubProperty(fmt.Sprintf("limitscope %s: %s", t.Target, f.Class))
			msg := safetext.GitHubMessage(fmt.Sprintf("%s (%s). %s", f.Evidence.Summary, span(f.Start, f.End), f.Recommendation))
			anns = append(anns, ann{level, rk, fmt.Sprintf("::%s title=%s::%s\n", level, title, msg)})
		}
	}
	sort.SliceStable(anns, func(i, j int) bool { return anns[i].rank > anns[j].rank })
	if len(anns) > MaxAnnotations {
		anns = anns[:MaxAnnotations]
	}
	for _, a := range anns {
		if _, err := io.WriteString(w, a.text); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(w, "limitscope: %d target(s), exit %d%s\n", len(r.Targets), r.ExitCode, r.exitWhy()); err != nil {
		return err
	}
	if summary != nil {
		return r.Markdown(summary)
	}
	return nil
}
