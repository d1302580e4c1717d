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
	rules := ""
	if len(ruleFiles) > 0 {
		rules = "rule_files:\n"
		for _, f := range ruleFiles {
			rules += fmt.Sprintf("  - %q\n", f)
		}
	}
	return startServer(t, fmt.Sprintf(`global:
  scrape_interval: %s
  evaluation_interval: 1s
%sscrape_configs:
  - job_name: limiter
    static_configs:
      - targets: [%q]
`, scrape, rules, target), "")
}

// BackfilledPrometheus starts the real Prometheus server on a loopback port
// over the history in openMetrics (OpenMetrics text, timestamps in the
// past), written into its storage by the real promtool (tsdb
// create-blocks-from openmetrics) as a backfill is; it scrapes nothing. It
// returns the server's URL; the server stops when the test ends.
func BackfilledPrometheus(t testing.TB, openMetrics string) string {
	t.Helper()
	promtool := Require(t, "promtool", "prometheus", "fleet mode is tested against a real server")
	dir := t.TempDir()
	in, data := filepath.Join(dir, "history.om"), filepath.Join(dir, "data")
	if err := os.WriteFile(in, []byte(openMetrics), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, data).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	return startServer(t, "global:\n  scrape_interval: 15s\n", data)
}

// startServer starts the real Prometheus server with the configuration
// cfg over the storage in data (a fresh one where it is "") and waits
// until it is ready.
func startServer(t testing.TB, cfg, data string) string {
	t.Helper()
	bin := Require(t, "prometheus", "prometheus", "fleet mode is tested against a real server")
	dir := t.TempDir()
	if data == "" {
		data = filepath.Join(dir, "data")
	}
	cfgFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	cmd := exec.Command(bin, "--config.file="+cfgFile, "--storage.tsdb.path="+data, "--web.listen-address="+addr, "--log.level=warn")
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
