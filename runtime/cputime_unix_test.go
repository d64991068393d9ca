//go:build unix

package runtime

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system CPU time, for the cpu-ns/op
// benchmarks report: on a shared machine wall time measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
