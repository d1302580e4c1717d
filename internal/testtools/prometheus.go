package testtools

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// StartPrometheus starts the real Prometheus server (Debian package
// prometheus) on a loopback port, scraping target (host:port, its
// /metrics) every scrape (a Prometheus duration, e.g. "1s") as job
// "limiter" and evaluating the rule files given every second. It returns
// the server's URL; the server stops when the test ends.
func StartPrometheus(t testing.TB, scrape, target string, ruleFiles ...string) string {
	t.Helper()
	bin := Require(t, "prometheus", "prometheus", "fleet mode is tested against a real server")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	rules := ""
	if len(ruleFiles) > 0 {
		rules = "rule_files:\n"
		for _, f := range ruleFiles {
			rules += fmt.Sprintf("  - %q\n", f)
		}
	}
	err := os.WriteFile(cfg, []byte(fmt.Sprintf(`global:
  scrape_interval: %s
  evaluation_interval: 1s
%sscrape_configs:
  - job_name: limiter
    static_configs:
      - targets: [%q]
`, scrape, rules, target)), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr, "--log.level=warn")
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting prometheus: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return "http://" + addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus did not become ready: %s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// FreePort returns a loopback TCP port free at the time of the call.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
