package main

import (
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"
)

// hugePagesSize is the heap (bytes) hugePages asks the kernel to back by
// transparent huge pages: about the heap a small spec's generation uses
// under gcFloor's 20 MiB floor (SQS and S3 peak at 32–44 MiB RSS).
const hugePagesSize = 32 << 20

// hugePageAlign is the size and alignment of an x86-64 (and arm64 4K-page
// kernel's) transparent huge page.
const hugePageAlign = 2 << 20

// hugePagesMinSpec is the smallest spec file (bytes) hugePages acts for:
// a one-operation spec (2 KiB) ran 2–3 ms slower with it, SQS's (260 KiB)
// a fifth faster.
const hugePagesMinSpec = 64 << 10

var hugePagesOnce sync.Once

// hugePagesAdvised is the address range hugePages advised (for the test).
var hugePagesAdvised [2]uintptr

// hugePages backs the first hugePagesSize bytes of heap that generation
// will use with transparent huge pages, where the kernel allows it
// (Linux with transparent_hugepage "madvise" or "always"; elsewhere it does
// nothing but allocate and collect). Every page of fresh heap the process
// touches costs a page fault, and on virtual machines a fault costs
// 13–16 µs of CPU: a quarter of generating SQS, 5,000 faults of 4 KiB
// (issue 24). A 2 MiB page is one fault. The Go runtime does not ask for
// huge pages on its heap, so hugePages allocates one block of
// hugePagesSize, advises the kernel (madvise MADV_HUGEPAGE) on the whole
// 2 MiB pages inside it, and collects it: the pages stay mapped in the
// heap, free, and the allocations that follow reuse them. The collection
// is the only cost (the heap is a few MiB then); peak memory is unchanged
// (bench/results.md). Once per process; GOGC in the environment (which
// also turns gcFloor off) leaves it off, and so does a spec file under
// hugePagesMinSpec bytes (specSize): its heap fits in the pages the
// process touched already, and the collection would be all there is.
func hugePages(gogcEnv string, specSize int64) {
	if gogcEnv != "" || specSize < hugePagesMinSpec {
		return
	}
	hugePagesOnce.Do(func() {
		// No collection starts at the block's allocation (the heap is
		// over the runtime's 4 MiB goal then): the one below frees it.
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		b := make([]byte, hugePagesSize) // fresh from the OS: not written
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		beg := (p + hugePageAlign - 1) &^ (hugePageAlign - 1)
		end := (p + hugePagesSize) &^ (hugePageAlign - 1)
		if beg < end {
			adviseHugePages(b[beg-p : end-p])
			hugePagesAdvised = [2]uintptr{beg, end}
		}
		runtime.KeepAlive(b)
		b = nil
		runtime.GC()
	})
}
