package runtime

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStoreBounded: a bounded cache keeps the first value stored under a
// key, holds at most max keys, returns a value it did not keep with kept
// false, and still finds a kept key when full; 64 goroutines storing
// distinct keys at once leave exactly max keys and a count of max (the
// check-then-store it replaces, in three caches, could let each racing
// caller past the bound).
func TestStoreBounded(t *testing.T) {
	var m sync.Map
	var n atomic.Int32
	got, kept := storeBounded(&m, &n, 2, "a", 1)
	require.Equal(t, []any{1, true}, []any{got, kept})
	got, kept = storeBounded(&m, &n, 2, "a", 9)
	require.Equal(t, []any{1, true}, []any{got, kept}, "the first value stays")
	got, kept = storeBounded(&m, &n, 2, "b", 2)
	require.Equal(t, []any{2, true}, []any{got, kept})
	got, kept = storeBounded(&m, &n, 2, "c", 3)
	require.Equal(t, []any{3, false}, []any{got, kept}, "full: not kept")
	got, kept = storeBounded(&m, &n, 2, "b", 8)
	require.Equal(t, []any{2, true}, []any{got, kept}, "full, but b is there")
	require.Equal(t, int32(2), n.Load())

	var m2 sync.Map
	var n2, nKept atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 64 {
		wg.Go(func() {
			<-start
			if _, kept := storeBounded(&m2, &n2, 10, i, i); kept {
				nKept.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	stored := 0
	m2.Range(func(any, any) bool { stored++; return true })
	require.Equal(t, 10, stored)
	require.Equal(t, int32(10), n2.Load())
	require.Equal(t, int32(10), nKept.Load())
}
