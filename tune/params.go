package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
)

// Params are the gradient limiter's knobs, as a deployment sets them. Each
// field is one row of Table, which says everything else about it: its flag,
// help, unit, step, range and how it reaches the limiter.
type Params struct {
	Smoothing       float64      `json:"smoothing" yaml:"smoothing"`
	MinLimit        float64      `json:"min_limit" yaml:"min_limit"`
	MaxLimit        float64      `json:"max_limit" yaml:"max_limit"`
	Cap             float64      `json:"cap" yaml:"cap"`
	RTTWindow       sim.Duration `json:"rtt_window" yaml:"rtt_window"`
	GradientFloor   float64      `json:"gradient_floor" yaml:"gradient_floor"`
	GrowthThreshold float64      `json:"growth_threshold" yaml:"growth_threshold"`
	LossBackoff     float64      `json:"loss_backoff" yaml:"loss_backoff"`
}

// Unit is how a parameter's value reads and prints.
type Unit int

const (
	// Number is a plain number.
	Number Unit = iota
	// Requests is a number of concurrent requests; for a parameter with
	// ZeroIsNone, 0 prints as "none".
	Requests
	// Seconds is a duration, held as seconds in Get and Set: it reads as
	// "2m", "90s" or a number of seconds and prints as "2m0s".
	Seconds
)

// Param is one row of the parameter table: the single description of a
// tuning knob from which the tune command's flags, the tune view's panel and
// steps, validation, parameter files, the Go literal and --sweep axes are
// all derived.
type Param struct {
	// Name is the snake_case name of files, --sweep and the tune panel.
	Name string
	// Flag is the tune command's flag setting the baseline value.
	Flag string
	// Help is one line: what the knob does.
	Help string
	Unit Unit
	// Step is one ←/→ press in the tune view (seconds for Seconds).
	Step float64
	// ZeroIsNone: 0 switches the knob off ("none").
	ZeroIsNone bool
	// Field is the limiter.Gradient field in the Go literal; GateField says
	// the knob belongs to limiter.GateConfig instead.
	Field     string
	GateField bool
	// Default is the value of Defaults (limiter's defaults).
	Default float64

	get func(*Params) float64
	set func(*Params, float64)
	// apply sets the knob on a limiter (nil for a GateField)
	apply func(*limiter.Gradient, float64)
	// check says why v is out of range given the other knobs, "" when fine
	check func(v float64, p *Params) string
}

func inUnit(v float64) string {
	if v > 0 && v <= 1 {
		return ""
	}
	return "must be in (0, 1]"
}

// Table is every tuning knob of the gradient limiter, in the order of the
// panel, files and validation. A new knob is one row here plus its field in
// Params.
var Table = []Param{
	{Name: "smoothing", Flag: "smoothing", Help: "the weight of the new target; higher reacts faster and oscillates more",
		Step: 0.05, Field: "Smoothing", Default: limiter.DefaultSmoothing,
		get:   func(p *Params) float64 { return p.Smoothing },
		set:   func(p *Params, v float64) { p.Smoothing = v },
		apply: func(g *limiter.Gradient, v float64) { g.Smoothing = v },
		check: func(v float64, _ *Params) string {
			if inUnit(v) != "" {
				return "must be in (0, 1]: the weight of the new target"
			}
			return ""
		}},
	{Name: "min_limit", Flag: "min-limit", Help: "the lowest limit the limiter sets", Unit: Requests,
		Step: 1, Field: "MinLimit", Default: limiter.DefaultMinLimit,
		get:   func(p *Params) float64 { return p.MinLimit },
		set:   func(p *Params, v float64) { p.MinLimit = v },
		apply: func(g *limiter.Gradient, v float64) { g.MinLimit = v },
		check: func(v float64, _ *Params) string {
			if !(v >= 1) {
				return "must be at least 1"
			}
			return ""
		}},
	{Name: "max_limit", Flag: "max-limit", Help: "the highest limit the limiter sets", Unit: Requests,
		Step: 10, Field: "MaxLimit", Default: limiter.DefaultMaxLimit,
		get:   func(p *Params) float64 { return p.MaxLimit },
		set:   func(p *Params, v float64) { p.MaxLimit = v },
		apply: func(g *limiter.Gradient, v float64) { g.MaxLimit = v },
		check: func(v float64, p *Params) string {
			if !(v >= p.MinLimit) {
				return "must be at least min_limit"
			}
			return ""
		}},
	{Name: "cap", Flag: "cap", Help: "the static safety cap above the adaptive limit (0: none)", Unit: Requests,
		Step: 10, ZeroIsNone: true, Field: "Cap", GateField: true,
		get: func(p *Params) float64 { return p.Cap },
		set: func(p *Params, v float64) { p.Cap = v },
		check: func(v float64, _ *Params) string {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return "must be 0 (none) or positive"
			}
			return ""
		}},
	{Name: "rtt_window", Flag: "rtt-window", Help: "how long a minimum RTT is trusted before the limiter re-probes", Unit: Seconds,
		Step: 10, Field: "RTTWindow", Default: limiter.DefaultRTTWindow.Seconds(),
		get:   func(p *Params) float64 { return time.Duration(p.RTTWindow).Seconds() },
		set:   func(p *Params, v float64) { p.RTTWindow = sim.Duration(v * float64(time.Second)) },
		apply: func(g *limiter.Gradient, v float64) { g.RTTWindow = time.Duration(v * float64(time.Second)) },
		check: func(v float64, _ *Params) string {
			if !(v > 0) {
				return "must be positive"
			}
			return ""
		}},
	{Name: "gradient_floor", Flag: "gradient-floor", Help: "the lowest gradient one sample applies (0.5: at most halving)",
		Step: 0.05, Field: "GradientFloor", Default: limiter.DefaultGradientFloor,
		get:   func(p *Params) float64 { return p.GradientFloor },
		set:   func(p *Params, v float64) { p.GradientFloor = v },
		apply: func(g *limiter.Gradient, v float64) { g.GradientFloor = v },
		check: func(v float64, _ *Params) string { return inUnit(v) }},
	{Name: "growth_threshold", Flag: "growth-threshold", Help: "the share of the limit in flight before the limit may grow",
		Step: 0.05, Field: "GrowthThreshold", Default: limiter.DefaultGrowthThreshold,
		get:   func(p *Params) float64 { return p.GrowthThreshold },
		set:   func(p *Params, v float64) { p.GrowthThreshold = v },
		apply: func(g *limiter.Gradient, v float64) { g.GrowthThreshold = v },
		check: func(v float64, _ *Params) string {
			if !(v > 0) {
				return "must be positive"
			}
			return ""
		}},
	{Name: "loss_backoff", Flag: "loss-backoff", Help: "what a loss event multiplies the limit by",
		Step: 0.05, Field: "LossBackoff", Default: limiter.DefaultLossBackoff,
		get:   func(p *Params) float64 { return p.LossBackoff },
		set:   func(p *Params, v float64) { p.LossBackoff = v },
		apply: func(g *limiter.Gradient, v float64) { g.LossBackoff = v },
		check: func(v float64, _ *Params) string { return inUnit(v) }},
}

// Names lists the parameters as --sweep and the tune view name them.
func Names() []string {
	names := make([]string, len(Table))
	for i, p := range Table {
		names[i] = p.Name
	}
	return names
}

// Lookup finds a parameter by name or flag ("rtt_window", "rtt-window").
func Lookup(name string) (*Param, bool) {
	name = strings.ReplaceAll(strings.TrimSpace(name), "-", "_")
	for i := range Table {
		if Table[i].Name == name {
			return &Table[i], true
		}
	}
	return nil, false
}

// Format prints v for a screen: 4 significant digits, a duration as "2m0s",
// "none" for 0 where 0 switches the knob off.
func (k *Param) Format(v float64) string {
	switch {
	case k.ZeroIsNone && v == 0:
		return "none"
	case k.Unit == Seconds:
		return time.Duration(v * float64(time.Second)).String()
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Parse reads a value as a user types it: a number, a duration ("2m", or a
// number of seconds) for Seconds, "none" where 0 switches the knob off.
func (k *Param) Parse(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if k.ZeroIsNone && strings.EqualFold(s, "none") {
		return 0, nil
	}
	if k.Unit == Seconds {
		if d, err := time.ParseDuration(s); err == nil {
			return d.Seconds(), nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		if k.Unit == Seconds {
			return 0, fmt.Errorf("%q is not a duration like \"2m\" or a number of seconds", s)
		}
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// Defaults are the gradient limiter's default parameters (no cap).
func Defaults() Params {
	var p Params
	for i := range Table {
		Table[i].set(&p, Table[i].Default)
	}
	return p
}

// Get returns a parameter by name (durations in seconds).
func (p *Params) Get(name string) (float64, bool) {
	k, ok := Lookup(name)
	if !ok {
		return 0, false
	}
	return k.get(p), true
}

// Set sets a parameter by name (durations in seconds).
func (p *Params) Set(name string, v float64) bool {
	k, ok := Lookup(name)
	if ok {
		k.set(p, v)
	}
	return ok
}

// Validate says what is out of range, in words, naming the first parameter
// in Table order that is.
func (p Params) Validate() error {
	for i := range Table {
		k := &Table[i]
		v := k.get(&p)
		if why := k.check(v, &p); why != "" {
			return fmt.Errorf("%s = %v: %s", k.Name, v, why)
		}
	}
	return nil
}

// Gradient returns a fresh limiter with these parameters.
func (p Params) Gradient() *limiter.Gradient {
	g := &limiter.Gradient{}
	for i := range Table {
		if k := &Table[i]; k.apply != nil {
			k.apply(g, k.get(&p))
		}
	}
	return g
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// GoLiteral is the parameters as Go code for a service importing limiter.
func (p Params) GoLiteral() string {
	width := 0
	for _, k := range Table {
		if !k.GateField {
			width = max(width, len(k.Field)+1)
		}
	}
	var b strings.Builder
	b.WriteString("limiter.Gradient{\n")
	var gate []string
	for i := range Table {
		k := &Table[i]
		v := k.get(&p)
		lit := g(v)
		if k.Unit == Seconds {
			lit = goDuration(time.Duration(v * float64(time.Second)))
		}
		if k.GateField {
			if !(k.ZeroIsNone && v == 0) {
				gate = append(gate, k.Field+": "+lit)
			}
			continue
		}
		fmt.Fprintf(&b, "\t%-*s %s,\n", width, k.Field+":", lit)
	}
	b.WriteString("}")
	if len(gate) > 0 {
		fmt.Fprintf(&b, "\n// with limiter.GateConfig{%s}", strings.Join(gate, ", "))
	}
	return b.String()
}

func goDuration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%d * time.Minute", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d * time.Second", d/time.Second)
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}

// FlagValue is a parameter of a Params as a command-line flag (it satisfies
// pflag.Value): it reads what Param.Parse reads, so --rtt-window 2m and
// --sweep rtt_window=2m agree.
type FlagValue struct {
	Param  *Param
	Params *Params
}

// String prints the current value ("0" for an unset cap, so help shows no
// default for it).
func (f FlagValue) String() string {
	if f.Param == nil || f.Params == nil {
		return ""
	}
	v := f.Param.get(f.Params)
	if f.Param.Unit == Seconds {
		return time.Duration(v * float64(time.Second)).String()
	}
	return g(v)
}

// Set parses and sets the value.
func (f FlagValue) Set(s string) error {
	v, err := f.Param.Parse(s)
	if err != nil {
		return err
	}
	f.Param.set(f.Params, v)
	return nil
}

// Type names the value's kind in help.
func (f FlagValue) Type() string {
	if f.Param.Unit == Seconds {
		return "duration"
	}
	return "float"
}

// WriteFiles writes the parameters as stem.json, stem.yaml and stem.go (a Go
// literal) and returns the paths. It never overwrites: when any of the three
// exists, it writes beside them as stem-2.*, stem-3.* and so on.
func (p Params) WriteFiles(stem string) ([]string, error) {
	js, _ := json.MarshalIndent(p, "", "  ")
	ym, _ := yaml.Marshal(p)
	contents := [][]byte{
		append(js, '\n'),
		ym,
		[]byte("// Limiter parameters chosen with limitscope tune.\npackage main\n\nimport (\n\t\"time\"\n\n\t\"github.com/limitscope/limitscope/limiter\"\n)\n\nvar tunedLimiter = &" + p.GoLiteral() + "\n\nvar _ = time.Second\n"),
	}
	exts := []string{".json", ".yaml", ".go"}
	base := stem
	for n := 2; ; n++ {
		free := true
		for _, ext := range exts {
			if _, err := os.Lstat(base + ext); !errors.Is(err, fs.ErrNotExist) {
				free = false
			}
		}
		if free {
			break
		}
		if n > 1000 {
			return nil, fmt.Errorf("writing parameters: %s.* to %s-1000.* all exist", stem, stem)
		}
		base = fmt.Sprintf("%s-%d", stem, n)
	}
	var out []string
	for i, ext := range exts {
		name := base + ext
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return out, fmt.Errorf("writing parameters: %w", err)
		}
		_, err = f.Write(contents[i])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return out, fmt.Errorf("writing parameters: %w", err)
		}
		out = append(out, name)
	}
	return out, nil
}

// ReadParams reads a JSON or YAML parameter file (fields left out keep the
// defaults) and validates it.
func ReadParams(path string) (Params, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Params{}, fmt.Errorf("reading parameters: %w", err)
	}
	p := Defaults()
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return Params{}, fmt.Errorf("%s: %w", path, err)
		}
	default:
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&p); err != nil {
			return Params{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
