package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/limitscope/limitscope/internal/testtools"
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

// requireTool is testtools.Require for a tool whose Debian package has its
// name.
func requireTool(t *testing.T, name, why string) string {
	t.Helper()
	return testtools.Require(t, name, name, why)
}
