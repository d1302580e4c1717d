// Package testtools holds what tests of several packages share. It finds
// the system tools tests start for real (tmux, prometheus, promtool): under
// make test (LIMITSCOPE_REQUIRE_TOOLS=1) a missing tool fails the test; a
// plain go test skips it with a message, so go test ./... stays hermetic.
// And it reshapes traces the way exporters do (RepeatReadings).
package testtools

import (
	"os"
	"os/exec"
	"testing"
)

// Require returns the path of the tool name, or fails or skips t saying why
// it is needed and how to install it.
func Require(t testing.TB, name, pkg, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := name + " is not installed: run `make test-deps` (as root) or `sudo apt-get install -y " + pkg + "`; " + why
	if os.Getenv("LIMITSCOPE_REQUIRE_TOOLS") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + " (skipped: make test requires it)")
	return ""
}
