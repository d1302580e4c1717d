package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"testing"
)

// diagnose's memory follows its window and output, not its input: 4 M rows
// sharing one timestamp (which used to grow the window without bound) and
// 4 M advancing rows (whose sparkline used to keep every value), streamed
// through stdin, stay far below 512 MiB. Measured on the real binary.
func TestDiagnoseMemoryIsBoundedByTheWindowNotTheInput(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 8 M rows through the binary")
	}
	for name, row := range map[string]func(i int) string{
		"same timestamp": func(i int) string { return fmt.Sprintf("1764410400,x,%d,%d,20,21,0,1\n", 10+i%7, 5+i%5) },
		"advancing": func(i int) string {
			return fmt.Sprintf("%d.%03d,x,%d,%d,20,21,0,1\n", 1764410400+i/1000, i%1000, 10+i%7, 5+i%5)
		},
	} {
		cmd := exec.Command(binary(t), "diagnose", "-", "--format", "text")
		stdin, _ := cmd.StdinPipe()
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(stdin, 1<<20)
		w.WriteString("time,target,limit,in_flight,rtt_min_ms,rtt_ms,dropped,rejected\n")
		for i := 0; i < 4_000_000; i++ {
			w.WriteString(row(i))
		}
		w.Flush()
		stdin.Close()
		_ = cmd.Wait() // the verdict's exit code does not matter here
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
		t.Logf("%s: max RSS %d MiB", name, rss>>20)
		if rss > 512<<20 {
			t.Errorf("%s: max RSS %d MiB, above 512 MiB", name, rss>>20)
		}
	}
}
