package runtime

import (
	"sync"
	"sync/atomic"
)

// storeBounded stores v under k in m, a process or client cache holding at
// most max entries counted by n, and returns what m holds under k (the
// value already there, else v once stored) and kept true. When m is full
// it returns v and kept false, v not stored (the caller computes it again
// next time). Each
// store first reserves its place in n, so the bound holds under
// concurrency: a check of n followed by a store let every caller racing
// past the check in (review of the server-origins cache). Entries are never
// removed.
func storeBounded(m *sync.Map, n *atomic.Int32, max int32, k, v any) (got any, kept bool) {
	if n.Add(1) > max {
		n.Add(-1)
		if prev, ok := m.Load(k); ok {
			return prev, true
		}
		return v, false
	}
	prev, loaded := m.LoadOrStore(k, v)
	if loaded {
		n.Add(-1)
	}
	return prev, true
}
