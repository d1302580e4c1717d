package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds the real limitscope binary once per test run.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "limitscope-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "limitscope")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/limitscope/limitscope").CombinedOutput()
		if err != nil {
			binErr = &buildError{string(out)}
		}
	})
	if binErr != nil {
		t.Fatalf("building the binary: %v", binErr)
	}
	return binPath
}

type buildError struct{ out string }

func (e *buildError) Error() string { return e.out }

// requireTool returns the path of a system tool a test starts for real
// (tmux, prometheus). Under make test (LIMITSCOPE_REQUIRE_TOOLS=1) a missing
// tool fails the test; a plain go test skips it with a message, so
// go test ./... stays hermetic.
func requireTool(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := name + " is not installed: run `make test-deps` (as root) or `sudo apt-get install -y " + name + "`; " + why
	if os.Getenv("LIMITSCOPE_REQUIRE_TOOLS") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + " (skipped: make test requires it)")
	return ""
}
