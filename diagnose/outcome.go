package diagnose

import (
	"fmt"
	"strings"
)

// DefaultFailOn are the classes that fail a CI job unless told otherwise.
var DefaultFailOn = []Class{Degraded, Oscillating}

// Exit codes of a diagnosis; the command adds its own (usage, output) to
// these, in one list in cmd.
const (
	ExitClean     = 0 // no fail-on class found
	ExitFailed    = 1 // a fail-on class found
	ExitNoVerdict = 3 // nothing could be evaluated
)

// ParseClasses parses a comma-separated class list, naming the first
// unknown class.
func ParseClasses(s string) ([]Class, error) {
	out := []Class{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		ok := false
		for _, c := range Classes {
			if string(c) == f {
				out = append(out, c)
				ok = true
			}
		}
		if !ok {
			names := make([]string, len(Classes))
			for i, c := range Classes {
				names[i] = string(c)
			}
			return nil, fmt.Errorf("unknown class %q (classes: %s)", f, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// Failing reports whether a target's verdict or any finding is one of the
// fail-on classes, and which.
func Failing(t Result, failOn []Class) []Class {
	var out []Class
	seen := map[Class]bool{}
	check := func(c Class) {
		for _, f := range failOn {
			if f == c && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	check(t.Class)
	for _, f := range t.Findings {
		check(f.Class)
	}
	return out
}

// ExitCode is the exit code of a diagnosis of results under failOn:
// ExitFailed when any target shows a fail-on class, ExitNoVerdict when no
// target could be evaluated, else ExitClean.
func ExitCode(results []Result, failOn []Class) int {
	evaluated := 0
	failed := false
	for _, t := range results {
		if t.Class != Insufficient {
			evaluated++
		}
		if len(Failing(t, failOn)) > 0 {
			failed = true
		}
	}
	switch {
	case failed:
		return ExitFailed
	case evaluated == 0:
		return ExitNoVerdict
	}
	return ExitClean
}
