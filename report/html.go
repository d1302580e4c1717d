package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// chart is one SVG panel: polylines over a shared time axis, with finding
// bands behind them.
type chart struct {
	Width, Height int
	Lines         []chartLine
	Bands         []chartBand
	Breaks        []chartBreak
	YMax          string
	YLabel        string
	TimeLeft      string
	TimeRight     string
}

type chartLine struct {
	Name, Color, Points string
}

// chartBreak is a silence the chart's Timeline draws narrow.
type chartBreak struct {
	X     float64
	Title string
}

type chartBand struct {
	X, W  float64
	Color string
	Title string
}

const (
	chartW     = 920
	maxPoints  = 920
	plotLeft   = 48.0
	plotRight  = 8.0
	plotTop    = 10.0
	plotBottom = 22.0
)

var bandColor = map[diagnose.Severity]string{diagnose.SevCritical: "#f8d0d0", diagnose.SevWarning: "#fde7c2", diagnose.SevInfo: "#d6ecf7", diagnose.SevOK: "#e3f4e1", diagnose.SevNone: "#eeeeee"}

// series extracts (time, value) pairs of one field, thinned to maxPoints.
func seriesOf(samples []trace.Sample, f trace.Field) (ts []time.Time, vs []float64) {
	step := 1
	if len(samples) > maxPoints {
		step = (len(samples) + maxPoints - 1) / maxPoints
	}
	for i := 0; i < len(samples); i += step {
		if v, ok := samples[i].Value(f); ok {
			ts = append(ts, samples[i].Time)
			vs = append(vs, v)
		}
	}
	return
}

func buildChart(samples []trace.Sample, findings []diagnose.Finding, height int, label string, fields []trace.Field, names, colors []string) chart {
	c := chart{Width: chartW, Height: height, YLabel: label}
	if len(samples) == 0 {
		return c
	}
	first, last := samples[0].Time, samples[len(samples)-1].Time
	times := make([]time.Time, len(samples))
	for i := range samples {
		times[i] = samples[i].Time
	}
	tl := NewTimeline(first, last, times)
	clock := ClockLayout(first, last)
	c.TimeLeft, c.TimeRight = samples[0].Time.UTC().Format(clock), samples[len(samples)-1].Time.UTC().Format(clock)
	ymax := 0.0
	type line struct {
		ts []time.Time
		vs []float64
	}
	lines := make([]line, len(fields))
	for i, f := range fields {
		lines[i].ts, lines[i].vs = seriesOf(samples, f)
		for _, v := range lines[i].vs {
			ymax = math.Max(ymax, v)
		}
	}
	if ymax <= 0 {
		ymax = 1
	}
	ymax *= 1.05
	pw := float64(chartW) - plotLeft - plotRight
	ph := float64(height) - plotTop - plotBottom
	x := func(t time.Time) float64 { return plotLeft + pw*tl.Pos(t) }
	y := func(v float64) float64 { return plotTop + ph*(1-v/ymax) }
	for _, b := range tl.Breaks() {
		c.Breaks = append(c.Breaks, chartBreak{X: (x(b.From) + x(b.To)) / 2,
			Title: fmt.Sprintf("no samples for %s, from %s to %s: drawn narrow", b.Length(), b.From.UTC().Format(time.RFC3339), b.To.UTC().Format(time.RFC3339))})
	}
	for _, f := range findings {
		a, b := x(f.Start), x(f.End)
		if f.Start.Before(first) {
			a = x(first)
		}
		if f.End.After(last) {
			b = x(last)
		}
		c.Bands = append(c.Bands, chartBand{X: a, W: math.Max(b-a, 1), Color: bandColor[f.Severity],
			Title: fmt.Sprintf("%s (%s) %s – %s: %s", f.Class, f.Severity, f.Start.Format(time.RFC3339), f.End.Format(time.RFC3339), f.Evidence.Summary)})
	}
	for i, l := range lines {
		if len(l.vs) == 0 {
			continue
		}
		// one polyline per stretch between breaks: none joins samples a
		// month apart
		var sb strings.Builder
		for j := range l.vs {
			if j > 0 && tl.Apart(l.ts[j-1], l.ts[j]) {
				c.Lines = append(c.Lines, chartLine{Name: names[i], Color: colors[i], Points: strings.TrimSpace(sb.String())})
				sb.Reset()
			}
			fmt.Fprintf(&sb, "%.1f,%.1f ", x(l.ts[j]), y(l.vs[j]))
		}
		c.Lines = append(c.Lines, chartLine{Name: names[i], Color: colors[i], Points: strings.TrimSpace(sb.String())})
	}
	c.YMax = fmt.Sprintf("%.4g", ymax)
	return c
}

type htmlTarget struct {
	diagnose.Result
	Badge     string
	Failing   bool
	Limit     chart
	RTT       chart
	Severity  map[diagnose.Class]diagnose.Severity
	StatsLine string
	Clock     string // ClockLayout of the target's findings
}

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{"safe": safetext.HTML, "confidence": confidenceOf}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>limitscope diagnosis: {{safe .Source}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#1d232a;max-width:980px}
h1{font-size:20px}h2{font-size:17px;margin-top:32px;border-top:1px solid #ddd;padding-top:16px}
table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #eee;text-align:left}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px}
.critical{background:#c62828;color:#fff}.warning{background:#ef8f00;color:#fff}.info{background:#0277bd;color:#fff}.ok{background:#2e7d32;color:#fff}.none{background:#9e9e9e;color:#fff}
.rec{color:#37474f;margin-left:18px}svg{display:block;margin:6px 0;background:#fff}
.legend span{margin-right:14px;font-size:12px}small{color:#666}.warn{background:#fff3e0;border-left:4px solid #ef8f00;padding:6px 10px}
</style></head><body>
<h1>limitscope diagnosis: {{safe .Source}}</h1>
<p>Exit code <b>{{.ExitCode}}</b>{{safe .Why}}.</p>
{{range .Warnings}}<p class="warn">warning: {{safe .}}</p>
{{end}}<table><tr><th>target</th><th>verdict</th><th>confidence</th><th>samples</th></tr>
{{range .Targets}}<tr><td>{{safe .Target}}</td><td><span class="badge {{.Badge}}">{{.Class}}</span></td><td>{{confidence .Result}}</td><td>{{.Samples}}</td></tr>
{{end}}</table>
{{range .Targets}}
<h2>{{safe .Target}} <span class="badge {{.Badge}}">{{.Class}}</span></h2>
{{if .StatsLine}}<p><small>{{.StatsLine}}</small></p>{{end}}
<div class="legend"><span style="color:#1565c0">━ limit</span><span style="color:#ef6c00">━ in-flight</span><span style="color:#2e7d32">━ min RTT</span><span style="color:#9e9e9e">━ RTT</span><small>shaded: findings (hover for evidence)</small></div>
{{template "chart" .Limit}}{{template "chart" .RTT}}
<ul>{{$clock := .Clock}}{{range .Findings}}<li><span class="badge {{.Severity}}">{{.Class}}</span> {{(.Start.UTC).Format $clock}} – {{(.End.UTC).Format $clock}}: {{safe .Evidence.Summary}}{{if ne .Class "healthy"}}<div class="rec">→ {{safe .Recommendation}}</div>{{end}}</li>{{end}}
{{range .Unreachable}}<li><small>cannot reach {{.Class}}: {{safe .Reason}}</small></li>{{end}}</ul>
{{end}}
<p><small>Generated by limitscope. Self-contained: no scripts, no network.</small></p>
</body></html>
{{define "chart"}}<svg width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="{{.YLabel}}">
{{range .Bands}}<rect x="{{printf "%.1f" .X}}" y="0" width="{{printf "%.1f" .W}}" height="{{$.Height}}" fill="{{.Color}}"><title>{{safe .Title}}</title></rect>
{{end}}<line x1="48" y1="{{$.Height}}" x2="48" y2="0" stroke="#bbb"/><text x="4" y="16" font-size="11" fill="#555">{{.YMax}}</text><text x="4" y="{{$.Height}}" dy="-26" font-size="11" fill="#555">0</text>
<text x="52" y="{{$.Height}}" dy="-6" font-size="11" fill="#555">{{.TimeLeft}}</text><text x="{{$.Width}}" dx="-4" y="{{$.Height}}" dy="-6" font-size="11" fill="#555" text-anchor="end">{{.TimeRight}}</text><text x="52" y="14" font-size="11" fill="#555">{{.YLabel}}</text>
{{range .Breaks}}<line x1="{{printf "%.1f" .X}}" y1="0" x2="{{printf "%.1f" .X}}" y2="{{$.Height}}" stroke="#888" stroke-dasharray="2,3"><title>{{safe .Title}}</title></line>
{{end}}{{range .Lines}}<polyline fill="none" stroke="{{.Color}}" stroke-width="1.4" points="{{.Points}}"><title>{{.Name}}</title></polyline>
{{end}}</svg>{{end}}`))

// HTML writes one self-contained page (no scripts, no network) with an SVG
// chart per target: limit and in-flight, min RTT and RTT beneath, findings
// shaded behind them.
func (r *Report) HTML(w io.Writer) error {
	data := struct {
		Source   string
		ExitCode int
		Why      string
		Warnings []string
		Targets  []htmlTarget
	}{Source: r.Source, ExitCode: r.ExitCode, Why: r.exitWhy(), Warnings: r.Warnings}
	for _, t := range r.Targets {
		s := r.Series[t.Target]
		ht := htmlTarget{Result: t, Badge: string(diagnose.SeverityOf(t.Class)), Failing: len(r.Failing(t)) > 0, StatsLine: StatsLine(t.Stats), Clock: ClockLayout(t.Start, t.End)}
		ht.Limit = buildChart(s, t.Findings, 200, "limit / in-flight", []trace.Field{trace.FieldLimit, trace.FieldInFlight}, []string{"limit", "in-flight"}, []string{"#1565c0", "#ef6c00"})
		ht.RTT = buildChart(s, t.Findings, 120, "RTT (ms)", []trace.Field{trace.FieldRTT, trace.FieldRTTMin}, []string{"RTT", "min RTT"}, []string{"#9e9e9e", "#2e7d32"})
		data.Targets = append(data.Targets, ht)
	}
	return htmlTmpl.Execute(w, data)
}
