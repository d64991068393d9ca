// Command rusage runs a command and writes its wall time and peak memory to
// a file, like GNU `/usr/bin/time -f '%e %M' -o FILE`, but on any Unix with
// Go:
//
//	rusage FILE CMD [ARG...]
//
// FILE receives one line "SECONDS MAXRSS_KIB": the wall-clock time from
// start to exit in seconds (two decimals) and the peak resident set size in
// KiB of the command and of every descendant it waited for (wait4's
// ru_maxrss; Linux reports KiB, so `go build` includes the compiler it
// runs). The command's stdin, stdout and stderr are passed through and
// rusage exits with its status (1 when it could not be started).
//
// Why a separate process: Linux starts a child's ru_maxrss at its parent's
// peak (exec records the old, shared address space's high-water mark), so a
// command started directly by a big process (a test binary that has just
// generated GitHub's client) would report at least that process's memory.
// rusage is small, so the commands it starts are measured from near zero.
// Used by the realspecs tier (golden/measure_test.go) and bench/compare.sh.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: rusage FILE CMD [ARG...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2], os.Args[3:]))
}

// run runs name with args, writes the measurement to file and returns the
// exit status to use.
func run(file, name string, args []string) int {
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	began := time.Now()
	err := cmd.Run()
	wall := time.Since(began)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintf(os.Stderr, "rusage: %v\n", err)
		return 1
	}
	var maxRSS int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = int64(ru.Maxrss)
	}
	if werr := os.WriteFile(file, fmt.Appendf(nil, "%.2f %d\n", wall.Seconds(), maxRSS), 0o644); werr != nil {
		fmt.Fprintf(os.Stderr, "rusage: %v\n", werr)
		return 1
	}
	return cmd.ProcessState.ExitCode()
}
