package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiler writes the profiles -cpuprofile and -memprofile ask for, in the
// format `go tool pprof` reads.
type profiler struct {
	cpu     *os.File // open CPU profile, or nil
	memPath string   // where the allocation profile goes, or ""
}

// startProfiling starts CPU profiling into cpuPath (when not "") and
// remembers memPath for stop. The error names the flag and the file.
func startProfiling(cpuPath, memPath string) (*profiler, error) {
	p := &profiler{memPath: memPath}
	if cpuPath == "" {
		return p, nil
	}
	f, err := os.Create(cpuPath)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile %s: %w", cpuPath, err)
	}
	p.cpu = f
	return p, nil
}

// stop ends CPU profiling and writes the allocation profile ("allocs":
// every sampled allocation since the process started, by bytes and count,
// plus what is still live after a GC). The error names the flag and the file.
func (p *profiler) stop() error {
	var errs []error
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			errs = append(errs, fmt.Errorf("-cpuprofile: %w", err))
		}
	}
	if p.memPath != "" {
		errs = append(errs, writeAllocs(p.memPath))
	}
	return errors.Join(errs...)
}

// writeAllocs writes the "allocs" profile to path.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-memprofile: %w", err)
	}
	runtime.GC() // up-to-date live-heap figures
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("-memprofile %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("-memprofile: %w", err)
	}
	return nil
}
