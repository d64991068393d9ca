package exactjson

import (
	"sync"
	"sync/atomic"
)

// A session ties together the byte buffers one decode reads: a union
// decoding its value tries several variants, and each variant hands parts
// of the same bytes (slices of them, or copies Unmarshal makes) to the
// decoders of the unions below. A session lets those find the memo of the
// decode they are part of (runtime/openapi's union decoding) by the buffer
// their bytes are a slice of, since encoding/json gives an UnmarshalJSON
// method nothing but the bytes. Buffers are tracked by their last byte
// (every slice of a buffer ends its capacity there).
var (
	sessions sync.Map     // *byte (a tracked buffer's last byte) → any
	tracked  atomic.Int64 // buffers tracked: 0 skips every lookup
)

// lastByte returns the key of the buffer b is a slice of, or nil when b
// has no capacity.
func lastByte(b []byte) *byte {
	if cap(b) == 0 {
		return nil
	}
	return &b[:cap(b)][cap(b)-1]
}

// Session returns the session the buffer b is a slice of is tracked
// under, or nil.
func Session(b []byte) any {
	if tracked.Load() == 0 {
		return nil
	}
	k := lastByte(b)
	if k == nil {
		return nil
	}
	s, _ := sessions.Load(k)
	return s
}

// Track tracks the buffer buf (which no other session tracks: a copy the
// caller made) under session s until Untrack is called with the returned
// key.
func Track(buf []byte, s any) *byte {
	k := lastByte(buf)
	if k == nil {
		return nil
	}
	sessions.Store(k, s)
	tracked.Add(1)
	return k
}

// Untrack ends what Track began (nil: nothing).
func Untrack(k *byte) {
	if k == nil {
		return
	}
	sessions.Delete(k)
	tracked.Add(-1)
}

// Derived tracks the copy c of (a part of) b under b's session, if b has
// one, until Untrack is called with the returned key (nil when there is
// none), so the decoders below c find the session too.
func Derived(b, c []byte) *byte {
	s := Session(b)
	if s == nil || len(c) == 0 || len(b) > 0 && &c[0] == &b[0] {
		return nil
	}
	return Track(c, s)
}

// Tracked returns how many buffers are tracked now (0 when no decode
// session is open), for tests.
func Tracked() int64 { return tracked.Load() }
