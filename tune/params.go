package tune

import (
	"bytes"
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
)

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

// Param is one row of an algorithm's parameter table: the single
// description of a tuning knob from which the tune command's flags, the tune
// view's panel and steps, validation, parameter files, the Go literal and
// --sweep axes are all derived.
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
	// Field is the limiter field in the Go literal; GateField says the knob
	// belongs to limiter.GateConfig instead.
	Field     string
	GateField bool
	// Default is the value of the algorithm's defaults.
	Default float64
	// Min and Max bound the value (inclusive; Max 0: no upper bound);
	// MinOpen makes Min exclusive. AtLeast names another knob the value
	// must not be below.
	Min, Max float64
	MinOpen  bool
	AtLeast  string
}

// check says why v is out of range for k, "" when it is not.
func (k *Param) check(v float64, p Params) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "must be a finite number"
	case k.MinOpen && !(v > k.Min), !k.MinOpen && v < k.Min:
		op := "at least"
		if k.MinOpen {
			op = "above"
		}
		if k.ZeroIsNone {
			return "must be 0 (none) or positive"
		}
		if k.Max > 0 {
			return fmt.Sprintf("must be in %s%g, %g]", map[bool]string{true: "(", false: "["}[k.MinOpen], k.Min, k.Max)
		}
		return fmt.Sprintf("must be %s %g", op, k.Min)
	case k.Max > 0 && v > k.Max:
		return fmt.Sprintf("must be in %s%g, %g]", map[bool]string{true: "(", false: "["}[k.MinOpen], k.Min, k.Max)
	}
	if k.AtLeast != "" {
		if o, ok := p.Get(k.AtLeast); ok && v < o {
			return "must be at least " + k.AtLeast
		}
	}
	return ""
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

// text is v as parameter files write it: durations as "2m0s".
func (k *Param) text(v float64) any {
	if k.Unit == Seconds {
		return time.Duration(v * float64(time.Second)).String()
	}
	return v
}

// Params are one algorithm's knobs, as a deployment sets them: the values
// of its Table rows, by name.
type Params struct {
	// Algorithm names the algorithm (Algorithms; "" is gradient).
	Algorithm string
	values    map[string]float64
}

// Alg is the algorithm the parameters are for.
func (p Params) Alg() *Algorithm {
	a, _ := LookupAlgorithm(p.Algorithm)
	return a
}

// Lookup finds one of the algorithm's parameters by name or flag
// ("rtt_window", "rtt-window").
func (p Params) Lookup(name string) (*Param, bool) { return p.Alg().Lookup(name) }

// Get returns a parameter by name (durations in seconds).
func (p Params) Get(name string) (float64, bool) {
	k, ok := p.Lookup(name)
	if !ok {
		return 0, false
	}
	return p.values[k.Name], true
}

// Set sets a parameter by name (durations in seconds); it reports whether
// the algorithm has that parameter.
func (p *Params) Set(name string, v float64) bool {
	k, ok := p.Lookup(name)
	if ok {
		vals := make(map[string]float64, len(p.values)+1)
		for n, x := range p.values {
			vals[n] = x
		}
		vals[k.Name] = v
		p.values = vals // copy on write: Params are values, shared freely
	}
	return ok
}

// Cap is the gate's static cap (0: none).
func (p Params) Cap() float64 { v, _ := p.Get("cap"); return v }

// Validate says what is out of range, in words, naming the first parameter
// in Table order that is.
func (p Params) Validate() error {
	for i := range p.Alg().Table {
		k := &p.Alg().Table[i]
		v := p.values[k.Name]
		if why := k.check(v, p); why != "" {
			return fmt.Errorf("%s = %v: %s", k.Name, v, why)
		}
	}
	return nil
}

// Defaults are the gradient limiter's default parameters (no cap).
func Defaults() Params { return Algorithms[0].Defaults() }

// GoLiteral is the parameters as Go code for a service importing limiter.
func (p Params) GoLiteral() string {
	a := p.Alg()
	width := 0
	for _, k := range a.Table {
		if !k.GateField {
			width = max(width, len(k.Field)+1)
		}
	}
	var b strings.Builder
	b.WriteString("limiter." + a.Type + "{\n")
	var gate []string
	for i := range a.Table {
		k := &a.Table[i]
		v := p.values[k.Name]
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

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func goDuration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%d * time.Minute", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d * time.Second", d/time.Second)
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}

// MarshalJSON writes {"algorithm": …, then each knob in Table order}.
func (p Params) MarshalJSON() ([]byte, error) {
	a := p.Alg()
	var b bytes.Buffer
	b.WriteString(`{"algorithm":`)
	name, _ := json.Marshal(a.Name)
	b.Write(name)
	for i := range a.Table {
		k := &a.Table[i]
		v, err := json.Marshal(k.text(p.values[k.Name]))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `,%q:%s`, k.Name, v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalYAML writes the same mapping as MarshalJSON.
func (p Params) MarshalYAML() (any, error) {
	a := p.Alg()
	n := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v any) {
		var kv, vv yaml.Node
		kv.SetString(k)
		_ = vv.Encode(v)
		n.Content = append(n.Content, &kv, &vv)
	}
	add("algorithm", a.Name)
	for i := range a.Table {
		k := &a.Table[i]
		add(k.Name, k.text(p.values[k.Name]))
	}
	return n, nil
}

// fromMap reads a parameter file's mapping onto the algorithm's defaults:
// knobs left out keep them, an unknown knob is an error naming the known.
func fromMap(m map[string]any, where func(key string) string) (Params, error) {
	alg := "gradient"
	if v, ok := m["algorithm"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return Params{}, fmt.Errorf("%salgorithm must be a name, one of %s", where("algorithm"), strings.Join(AlgorithmNames(), ", "))
		}
		alg = s
	}
	a, ok := LookupAlgorithm(alg)
	if !ok {
		return Params{}, fmt.Errorf("%salgorithm %q: use one of %s", where("algorithm"), alg, strings.Join(AlgorithmNames(), ", "))
	}
	p := a.Defaults()
	for key, v := range m {
		if key == "algorithm" {
			continue
		}
		k, ok := a.Lookup(key)
		if !ok || k.Name != key {
			return Params{}, fmt.Errorf("%sunknown parameter %q for %s (parameters: %s)", where(key), key, a.Name, strings.Join(a.Names(), ", "))
		}
		var x float64
		switch v := v.(type) {
		case float64: // a number of seconds for a duration
			x = v
		case int:
			x = float64(v)
		case string:
			parsed, err := k.Parse(v)
			if err != nil {
				return Params{}, fmt.Errorf("%s%s: %w", where(key), key, err)
			}
			x = parsed
		default:
			return Params{}, fmt.Errorf("%s%s: %v is not a number", where(key), key, v)
		}
		p.Set(key, x)
	}
	return p, nil
}

// UnmarshalJSON reads what MarshalJSON writes ("algorithm" left out is
// gradient; knobs left out keep the algorithm's defaults).
func (p *Params) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	q, err := fromMap(m, func(string) string { return "" })
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// UnmarshalYAML reads what MarshalYAML writes, naming the line of a bad
// value.
func (p *Params) UnmarshalYAML(n *yaml.Node) error {
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		return err
	}
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		lines[n.Content[i].Value] = n.Content[i].Line
	}
	q, err := fromMap(m, func(key string) string {
		if l, ok := lines[key]; ok {
			return fmt.Sprintf("line %d: ", l)
		}
		return ""
	})
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// FlagValues hold the tune command's parameter flags as typed, until the
// algorithm is known (--algorithm may come after them): every algorithm's
// knobs are flags, each applied to the chosen one by Apply.
type FlagValues struct {
	set   map[string]string // flag name → raw value
	order []string
}

// Flag is one parameter flag: it satisfies pflag.Value.
type Flag struct {
	Param *Param
	into  *FlagValues
}

// String prints the default, as help shows it ("0" for an unset cap, so
// help shows no default for it).
func (f Flag) String() string {
	if f.Param == nil {
		return ""
	}
	if f.Param.Unit == Seconds {
		return time.Duration(f.Param.Default * float64(time.Second)).String()
	}
	return g(f.Param.Default)
}

// Set checks the value reads as the knob's unit and keeps it.
func (f Flag) Set(s string) error {
	if _, err := f.Param.Parse(s); err != nil {
		return err
	}
	if f.into.set == nil {
		f.into.set = map[string]string{}
	}
	if _, seen := f.into.set[f.Param.Flag]; !seen {
		f.into.order = append(f.into.order, f.Param.Flag)
	}
	f.into.set[f.Param.Flag] = s
	return nil
}

// Type names the value's kind in help.
func (f Flag) Type() string {
	if f.Param.Unit == Seconds {
		return "duration"
	}
	return "float"
}

// Flags are one flag per knob name across every algorithm (a knob several
// algorithms share, min_limit, is one flag), in a stable order.
func (fv *FlagValues) Flags() []Flag {
	var out []Flag
	seen := map[string]bool{}
	for _, a := range Algorithms {
		for i := range a.Table {
			k := &a.Table[i]
			if !seen[k.Flag] {
				seen[k.Flag] = true
				out = append(out, Flag{Param: k, into: fv})
			}
		}
	}
	return out
}

// Apply sets the flags given onto p, naming a flag p's algorithm does not
// have.
func (fv *FlagValues) Apply(p *Params) error {
	for _, flag := range fv.order {
		k, ok := p.Lookup(flag)
		if !ok {
			return fmt.Errorf("--%s is not a parameter of %s (its parameters: %s)", flag, p.Alg().Name, strings.Join(p.Alg().Flags(), ", "))
		}
		v, err := k.Parse(fv.set[flag])
		if err != nil {
			return fmt.Errorf("--%s: %w", flag, err)
		}
		p.Set(k.Name, v)
	}
	return nil
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

// ReadParams reads a JSON or YAML parameter file (an "algorithm" key chooses
// the algorithm, gradient when left out; knobs left out keep its defaults)
// and validates it.
func ReadParams(path string) (Params, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Params{}, fmt.Errorf("reading parameters: %w", err)
	}
	var p Params
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		err = json.Unmarshal(b, &p)
	default:
		err = yaml.Unmarshal(b, &p)
	}
	if err != nil {
		return Params{}, fmt.Errorf("%s: %w", path, err)
	}
	if p.values == nil {
		p = Defaults() // an empty file
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
