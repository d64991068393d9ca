//go:build !unix

package runtime

import "time"

// cpuTime is not measured here: benchmarks report cpu-ns/op 0.
func cpuTime() time.Duration { return 0 }
