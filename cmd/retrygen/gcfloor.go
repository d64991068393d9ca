package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// heapFloor is the heap size (bytes) below which generate does not make
// the garbage collector run: its goal is never under it. The Go runtime's
// own floor is 4 MiB, so generating a small spec (SQS: 1–3 MiB live, about
// 30 MiB allocated) ran 15–19 collections, a tenth of the run's CPU time,
// to keep a heap the process's 20 MiB of code and runtime already dwarf;
// S3 and Discord (10–15 MiB live) ran 20–26. Above the floor the goal is
// the phase's GOGC as before (loadingGCPercent while loading, then the
// default 100). The floor raises the peak of a small spec by up to its
// size: Discord's 44–50 MiB became about 52 (its target is 59 MiB; floors
// of 24 and 32 MiB reached 52–56 and 58–59 for 5–8 % less CPU time);
// Stripe's peak is set by its live heap, far above it (bench/results.md,
// "Generation").
const heapFloor = 20 << 20

// defaultHeapMinimum is the Go runtime's smallest heap goal at GOGC=100
// (runtime.defaultHeapMinimum, 4 MiB); the runtime scales it by GOGC/100.
const defaultHeapMinimum = 4 << 20

// gcFloor keeps the collector's heap goal at heapFloor or above while a
// generation runs, by choosing GOGC after every collection from the heap
// it left live (in a new process, before its first collection, the goal
// is the floor itself).
// A GOGC environment variable leaves the collector alone (newGCFloor
// returns nil, and nil's methods do nothing).
type gcFloor struct {
	mu sync.Mutex
	// percent is the phase's GOGC (loadingGCPercent, then 100); saved is
	// the setting put back by stop; done ends the per-collection hook.
	percent, saved int
	done           bool
	live           []metrics.Sample
}

// newGCFloor starts the floor with percent as the phase's GOGC; stop ends
// it. It returns nil when the GOGC environment variable is set.
func newGCFloor(percent int, gogcEnv string) *gcFloor {
	if gogcEnv != "" {
		return nil
	}
	g := &gcFloor{percent: percent, live: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	metrics.Read(g.live)
	g.saved = debug.SetGCPercent(g.gogc(g.live[0].Value.Uint64()))
	g.arm()
	return g
}

// gogc returns the GOGC that makes the heap goal about max(heapFloor,
// live×(1+percent/100)): the runtime's goal is the larger of
// defaultHeapMinimum×GOGC/100 and live×(1+GOGC/100), so the floor's GOGC is
// capped where its minimum is the floor.
func (g *gcFloor) gogc(live uint64) int {
	const capPercent = 100 * heapFloor / defaultHeapMinimum
	if live*uint64(100+g.percent)/100 >= heapFloor {
		return g.percent
	}
	p := capPercent
	if live > 0 {
		p = min(capPercent, int(100*heapFloor/live)-100)
	}
	return max(p, g.percent)
}

// arm sets a finalizer on a new unreachable object: it runs after the
// next collection, sets GOGC from the heap that collection left live, and
// arms the next one, until stop.
func (g *gcFloor) arm() {
	s := &gcSentinel{}
	runtime.SetFinalizer(s, func(*gcSentinel) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.done {
			return
		}
		metrics.Read(g.live)
		debug.SetGCPercent(g.gogc(g.live[0].Value.Uint64()))
		g.arm()
	})
}

// gcSentinel is the object whose finalizer follows collections: it holds
// a pointer, so it is not batched by the tiny allocator (whose objects may
// be finalized late).
type gcSentinel struct{ _ *int }

// phase makes percent the GOGC above the floor from now on.
func (g *gcFloor) phase(percent int) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.percent = percent
	metrics.Read(g.live)
	debug.SetGCPercent(g.gogc(g.live[0].Value.Uint64()))
}

// stop ends the floor and puts back the GOGC it found.
func (g *gcFloor) stop() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	debug.SetGCPercent(g.saved)
}
