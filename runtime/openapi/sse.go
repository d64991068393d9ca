package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// DoneSentinel is the data of the event that ends a stream by the
// convention of OpenAI-style streaming APIs (Mistral, OpenAI): "[DONE]".
// Generated code passes it as [EventStreamOptions.Sentinel] unless the
// media type names its own (x-speakeasy-sse-sentinel).
const DoneSentinel = "[DONE]"

// DefaultMaxEventSize bounds the bytes one event may hold (its field lines
// together) unless [EventStreamOptions.MaxEventSize] says otherwise: 16 MiB.
// A longer event ends the stream with an [*EventTooLargeError].
const DefaultMaxEventSize = 16 << 20

// Event is one server-sent event (WHATWG HTML, "Server-sent events",
// §9.2.6 "Interpreting an event stream"), its data decoded as T.
type Event[T any] struct {
	// Type is the event's type: its last event field, or "message" when it
	// has none (the WHATWG default).
	Type string
	// ID is the stream's last event ID when the event was dispatched: the
	// value of the latest id field so far, on this connection or an earlier
	// one ("" when none). A reconnect sends it as Last-Event-ID.
	ID string
	// Retry is the reconnection time the stream set last (its latest valid
	// retry field, in milliseconds on the wire); 0 when none.
	Retry time.Duration
	// Data is the event's data decoded as T: JSON, except that a string T
	// receives the data as text and a json.RawMessage or []byte T its bytes.
	Data T
	// Raw is the event's data as received: its data lines joined with "\n".
	Raw string
}

// EventStreamOptions configure an [EventStream]. The zero value has no
// sentinel and the default event size cap.
type EventStreamOptions struct {
	// Sentinel is the data that ends the stream ([DoneSentinel]); the event
	// carrying it is not delivered. "" for none.
	Sentinel string
	// MaxEventSize bounds one event's bytes (0: DefaultMaxEventSize).
	MaxEventSize int
}

// EventTooLargeError ends a stream whose event is longer than the cap
// ([EventStreamOptions.MaxEventSize]): nothing past the cap is buffered.
type EventTooLargeError struct {
	// Limit is the cap in bytes.
	Limit int
}

// Error names the cap.
func (e *EventTooLargeError) Error() string {
	return fmt.Sprintf("server-sent event longer than %d bytes", e.Limit)
}

// EventDecodeError is returned by [EventStream.Next] for an event whose
// data does not decode as the event type. It does not end the stream: the
// next call reads the next event.
type EventDecodeError struct {
	// Type, ID and Raw are the event's type, last event ID and data.
	Type, ID, Raw string
	Err           error
}

// Error names the event and the decoder's error.
func (e *EventDecodeError) Error() string {
	return fmt.Sprintf("decoding server-sent event %q (id %q): %v", e.Type, e.ID, e.Err)
}

// Unwrap returns the decoder's error.
func (e *EventDecodeError) Unwrap() error { return e.Err }

// Resumer is implemented by a stream body that can reconnect after it broke
// off (runtime.Stream, which drives the retry engine). Resume is called with
// the read error that cut the stream, the header to send on the reconnect
// (Last-Event-ID) and the reconnection time the stream asked for (its retry
// field; 0 for none); it returns nil once the body reads from the new
// response, else the error that ends the stream.
type Resumer interface {
	Resume(ctx context.Context, cause error, header http.Header, retry time.Duration) error
}

// StreamCutError ends an event stream that broke off where reconnecting
// could deliver an event twice: the last event delivered carried no id field
// (a reconnect without a resume point restarts the stream, or resumes from
// an earlier event), or the reconnect's first event repeats an event ID
// already delivered or carries no id field (the server did not resume after
// Last-Event-ID). The events delivered before it stand; the caller decides
// whether to start the call again.
type StreamCutError struct {
	// Delivered counts the events delivered before the stream ended.
	Delivered int
	// LastEventID is the stream's last event ID when it broke off.
	LastEventID string
	// Reconnected is true when the stream was reconnected with
	// Last-Event-ID and the server's first event was the problem.
	Reconnected bool
	// ID is the event ID the server sent again after the reconnect; "" when
	// that event carried no id field or the stream was not reconnected.
	ID string
	// Err is the read error that cut the stream.
	Err error
}

// Error says why the stream was not resumed.
func (e *StreamCutError) Error() string {
	switch {
	case !e.Reconnected:
		return fmt.Sprintf("event stream cut after %d events with no resume point (the last event delivered carried no id field; last event ID %q): reconnecting would deliver events again: %v", e.Delivered, e.LastEventID, e.Err)
	case e.ID == "":
		return fmt.Sprintf("event stream reconnected with Last-Event-ID %q, but the server's first event carried no id field, so it may repeat an event already delivered: %v", e.LastEventID, e.Err)
	}
	return fmt.Sprintf("event stream reconnected with Last-Event-ID %q, but the server sent event ID %q again (it did not resume after the last event ID): %v", e.LastEventID, e.ID, e.Err)
}

// Unwrap returns the read error that cut the stream.
func (e *StreamCutError) Unwrap() error { return e.Err }

// recentIDs is how many of the latest delivered event IDs a reconnect's
// first event is checked against (besides the first ID of every
// connection): 256.
const recentIDs = 256

// ErrorWrapper is implemented by a stream body whose call names its errors
// (runtime.Stream: a *runtime.OperationError with the service and
// operation). [EventStream.Next] passes each error it returns but io.EOF
// through WrapError, so the errors of an event stream read as the call's
// others do; errors.As still finds an [*EventDecodeError] or an
// [*EventTooLargeError] inside.
type ErrorWrapper interface {
	// WrapError returns err wrapped so that errors.Is and errors.As still
	// find err inside; never nil for a non-nil err.
	WrapError(err error) error
}

// EventStream reads server-sent events (WHATWG HTML §9.2.6) from a response
// body and decodes each event's data as T. Lines end with CRLF, LF or CR; a
// leading byte order mark is skipped; data lines are joined with "\n";
// comments (":" lines) and unknown fields are ignored; an id containing NUL
// and a retry that is not all digits are ignored (all digits but too long
// for a time.Duration is the longest Duration, not ignored); an event with
// no data is not delivered; an event cut off by the end of the stream is
// discarded.
//
// Conventions beyond the WHATWG rules: every event's data decodes as T
// whatever its type (event field), which [Event.Type] reports; the
// sentinel ([EventStreamOptions.Sentinel]) ends the stream; the end of the
// body ends the stream (no reconnect: a server that closes cleanly is done).
// A body that breaks off instead (a reset, a cut chunked body, a timeout) is
// resumed when it implements [Resumer] and the stream has a resume point:
// nothing was delivered yet, or the last event delivered carried an id
// field (a later id-only event counts). The partial event is discarded, the
// reconnect sends Last-Event-ID, and the reconnect's first event must carry
// an id field not delivered before (checked against the first ID of every
// connection and the latest 256): else the stream ends with a
// [*StreamCutError], as it does when there is no resume point. No event is
// delivered twice.
//
// An EventStream is not safe for concurrent use. It closes the body when
// the stream ends, fails, or Close is called.
type EventStream[T any] struct {
	body   io.ReadCloser
	opts   EventStreamOptions
	buf    []byte // read buffer; buf[r:w] is unread
	r, w   int
	line   []byte // the line being assembled across reads
	data   []byte // the event's data buffer
	typ    string // the event type buffer
	idBuf  string // the last event ID buffer
	lastID string // the last event ID at the latest dispatch
	retry  time.Duration
	// blockID: the event being read has an id field; dispatchID: the
	// latest dispatched one had.
	blockID, dispatchID bool
	// delivered counts the events delivered; anchored: the last of them
	// is covered by lastID (it, or a later id-only event, had an id field).
	delivered int
	anchored  bool
	// cause is the read error of the latest reconnect, until its first
	// event is checked; firstIDs are the first delivered ID of every
	// connection, recent the latest delivered IDs (a ring of recentIDs),
	// each kept as its 64-bit hash with seed (an ID may be as long as an
	// event, MaxEventSize: 256 of them kept whole could hold gigabytes).
	cause      error
	newConn    bool
	seed       maphash.Seed
	seeded     bool
	firstIDs   []uint64
	recent     []uint64
	recentNext int
	// resumedFrom is the Last-Event-ID the latest reconnect sent.
	resumedFrom string
	// skipLF: the previous line ended with CR, so a LF right after it
	// belongs to it.
	skipLF bool
	// bom: the first bytes of this connection are still to be checked for
	// a byte order mark.
	bom       bool
	size      int // bytes of the event so far
	err       error
	closeOnce sync.Once
}

// NewEventStream returns a stream of the events in body, which it owns.
func NewEventStream[T any](body io.ReadCloser, opts EventStreamOptions) *EventStream[T] {
	if opts.MaxEventSize <= 0 {
		opts.MaxEventSize = DefaultMaxEventSize
	}
	return &EventStream[T]{body: body, opts: opts, buf: make([]byte, 4096), bom: true, newConn: true}
}

// Close closes the body; later calls of Next return io.EOF. It returns the
// body's Close error.
func (s *EventStream[T]) Close() error {
	if s.err == nil {
		s.err = io.EOF
	}
	return s.close()
}

func (s *EventStream[T]) close() error {
	var err error
	s.closeOnce.Do(func() { err = s.body.Close() })
	return err
}

// LastEventID returns the stream's last event ID (see [Event.ID]): the one
// a reconnect sends.
func (s *EventStream[T]) LastEventID() string { return s.lastID }

// Next returns the next event. At the end of the stream (the body ended,
// or the sentinel arrived) it returns io.EOF; when ctx ends it closes the
// body and returns ctx's error; a read error that cannot be resumed, an
// [*EventTooLargeError] or the error that ended a resume is returned (each
// wrapped by a body that is an [ErrorWrapper], as runtime.Stream is).
// These end the stream: the body is closed and later calls return the same
// error. An [*EventDecodeError] does not end it.
func (s *EventStream[T]) Next(ctx context.Context) (Event[T], error) {
	if s.err != nil {
		return Event[T]{}, s.err
	}
	if err := ctx.Err(); err != nil {
		return Event[T]{}, s.fail(err)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.close() })
	defer stop()
	for {
		raw, ok, err := s.nextEvent()
		if err != nil {
			if ctx.Err() != nil {
				return Event[T]{}, s.fail(ctx.Err())
			}
			if err == io.EOF {
				return Event[T]{}, s.fail(io.EOF)
			}
			var tooLarge *EventTooLargeError
			if rs, can := s.body.(Resumer); can && !errors.As(err, &tooLarge) {
				if s.delivered > 0 && (!s.anchored || s.lastID == "") {
					return Event[T]{}, s.fail(&StreamCutError{Delivered: s.delivered, LastEventID: s.lastID, Err: err})
				}
				h := http.Header{}
				if s.lastID != "" {
					h.Set("Last-Event-ID", s.lastID)
				}
				if rerr := rs.Resume(ctx, err, h, s.retry); rerr != nil {
					return Event[T]{}, s.fail(rerr)
				}
				s.reset()
				if s.delivered > 0 {
					s.cause = err // the reconnect's first event is checked
				}
				continue
			}
			return Event[T]{}, s.fail(err)
		}
		if !ok {
			continue
		}
		if s.opts.Sentinel != "" && raw == s.opts.Sentinel {
			return Event[T]{}, s.fail(io.EOF)
		}
		if err := s.deliver(); err != nil {
			return Event[T]{}, s.fail(err)
		}
		ev := Event[T]{Type: s.typ, ID: s.lastID, Retry: s.retry, Raw: raw}
		if ev.Type == "" {
			ev.Type = "message"
		}
		s.typ = ""
		if err := decodeEventData(raw, &ev.Data); err != nil {
			return ev, s.wrap(&EventDecodeError{Type: ev.Type, ID: ev.ID, Raw: raw, Err: err})
		}
		return ev, nil
	}
}

// All returns an iterator over the stream's events: each event with a nil
// error, an [*EventDecodeError] with its event, and a last error that ends
// the stream (never io.EOF: the iteration just ends). The body is closed
// when the iteration ends, early or not.
func (s *EventStream[T]) All(ctx context.Context) iter.Seq2[Event[T], error] {
	return func(yield func(Event[T], error) bool) {
		defer s.Close()
		for {
			ev, err := s.Next(ctx)
			var de *EventDecodeError
			switch {
			case err == io.EOF:
				return
			case err != nil && !errors.As(err, &de):
				yield(ev, err)
				return
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

// fail ends the stream with err (wrapped, see [ErrorWrapper]) and closes
// the body.
func (s *EventStream[T]) fail(err error) error {
	s.err = s.wrap(err)
	_ = s.close()
	return s.err
}

// wrap returns err as the body's call names it ([ErrorWrapper]); io.EOF,
// and every error of a body that is no ErrorWrapper, as it is.
func (s *EventStream[T]) wrap(err error) error {
	if w, ok := s.body.(ErrorWrapper); ok && err != io.EOF {
		return w.WrapError(err)
	}
	return err
}

// deliver records the event about to be delivered (its ID, lastID), or
// returns the *StreamCutError of a reconnect's first event that was
// delivered before or cannot be told from one that was.
func (s *EventStream[T]) deliver() error {
	if s.cause != nil {
		cause := s.cause
		s.cause = nil
		if !s.dispatchID {
			return &StreamCutError{Delivered: s.delivered, LastEventID: s.resumedFrom, Reconnected: true, Err: cause}
		}
		if h := s.idHash(); slices.Contains(s.firstIDs, h) || slices.Contains(s.recent, h) {
			return &StreamCutError{Delivered: s.delivered, LastEventID: s.resumedFrom, Reconnected: true, ID: s.lastID, Err: cause}
		}
	}
	s.delivered++
	s.anchored = s.dispatchID
	if s.dispatchID {
		h := s.idHash()
		if s.newConn {
			s.firstIDs, s.newConn = append(s.firstIDs, h), false
		}
		if len(s.recent) < recentIDs {
			s.recent = append(s.recent, h)
		} else {
			s.recent[s.recentNext] = h
			s.recentNext = (s.recentNext + 1) % recentIDs
		}
	}
	return nil
}

// idHash returns the hash of lastID that firstIDs and recent hold. Two IDs
// with one hash (a chance of 2^-64 per pair) end the stream with a
// *StreamCutError, never deliver an event twice.
func (s *EventStream[T]) idHash() uint64 {
	if !s.seeded {
		s.seed, s.seeded = maphash.MakeSeed(), true
	}
	return maphash.String(s.seed, s.lastID)
}

// reset starts parsing a new connection: the partial line and event are
// dropped, with an id field of the partial event; the last event ID and
// the reconnection time are kept (WHATWG).
func (s *EventStream[T]) reset() {
	s.idBuf = s.lastID
	s.r, s.w = 0, 0
	s.line, s.data, s.typ = s.line[:0], s.data[:0], ""
	s.skipLF, s.bom, s.size = false, true, 0
	s.blockID, s.newConn, s.resumedFrom = false, true, s.lastID
}

// nextEvent reads lines until an empty line dispatches an event. It returns
// the event's data and ok when there is one to deliver; ok false when the
// event had no data (nothing to deliver, keep reading).
func (s *EventStream[T]) nextEvent() (data string, ok bool, err error) {
	for {
		line, err := s.readLine()
		if err != nil {
			return "", false, err
		}
		if len(line) == 0 {
			// Dispatch.
			s.size, s.lastID = 0, s.idBuf
			s.dispatchID, s.blockID = s.blockID, false
			if len(s.data) == 0 {
				s.typ = ""
				if s.dispatchID {
					s.anchored = true // an id-only event covers what came before
				}
				return "", false, nil
			}
			d := s.data
			if d[len(d)-1] == '\n' {
				d = d[:len(d)-1]
			}
			data = string(d)
			s.data = s.data[:0]
			return data, true, nil
		}
		s.field(line)
	}
}

// field processes one non-empty line.
func (s *EventStream[T]) field(line []byte) {
	if line[0] == ':' {
		return // comment
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		s.typ = string(value)
	case "data":
		s.data = append(append(s.data, value...), '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			s.idBuf, s.blockID = string(value), true
		}
	case "retry":
		if !httpsyntax.Digits(value) {
			break
		}
		// Too long for a Duration: the longest wait, which the runtime
		// clamps to its max server delay (retry-behavior.md §5: overflowing
		// values count as too long, never as absent).
		s.retry = time.Duration(math.MaxInt64)
		if ms, err := strconv.ParseUint(string(value), 10, 63); err == nil && ms <= uint64(math.MaxInt64)/uint64(time.Millisecond) {
			s.retry = time.Duration(ms) * time.Millisecond
		}
	}
}

// readLine returns the next line without its end (CRLF, LF or CR). The
// returned slice is valid until the next call.
func (s *EventStream[T]) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		if s.r == s.w {
			if err := s.fill(); err != nil {
				if err == io.EOF && len(s.line) > 0 {
					return nil, io.EOF // a line (and its event) cut by the end: discarded
				}
				return nil, err
			}
			continue
		}
		if s.skipLF {
			s.skipLF = false
			if s.buf[s.r] == '\n' {
				s.r++
				continue
			}
		}
		chunk := s.buf[s.r:s.w]
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			if err := s.grow(len(chunk)); err != nil {
				return nil, err
			}
			s.line = append(s.line, chunk...)
			s.r = s.w
			continue
		}
		if err := s.grow(i); err != nil {
			return nil, err
		}
		s.line = append(s.line, chunk[:i]...)
		s.skipLF = chunk[i] == '\r'
		s.r += i + 1
		return s.line, nil
	}
}

// grow counts n more bytes of the event against the cap.
func (s *EventStream[T]) grow(n int) error {
	s.size += n
	if s.size > s.opts.MaxEventSize {
		return &EventTooLargeError{Limit: s.opts.MaxEventSize}
	}
	return nil
}

// fill reads more of the body into the buffer, skipping a byte order mark
// at the start of a connection.
func (s *EventStream[T]) fill() error {
	s.r, s.w = 0, 0
	for s.w == 0 {
		n, err := s.body.Read(s.buf)
		s.w = n
		if n == 0 && err == nil {
			continue
		}
		if n > 0 {
			break
		}
		return err
	}
	if s.bom {
		// The BOM may arrive split across reads: only a prefix of it
		// followed by more bytes rules it out.
		for s.w < 3 && bytes.HasPrefix(bom, s.buf[:s.w]) {
			n, err := s.body.Read(s.buf[s.w:])
			s.w += n
			if err != nil {
				if s.w <= len(bom) && bytes.HasPrefix(bom, s.buf[:s.w]) {
					s.r = s.w // only a partial BOM before the end
				}
				s.bom = false
				return nil
			}
		}
		s.bom = false
		if bytes.HasPrefix(s.buf[:s.w], bom) {
			s.r = 3
		}
	}
	return nil
}

// bom is UTF-8's byte order mark, skipped at the start of a stream.
var bom = []byte{0xEF, 0xBB, 0xBF}

// decodeEventData decodes an event's data into v: text for a string,
// bytes for json.RawMessage and []byte, JSON otherwise.
func decodeEventData[T any](data string, v *T) error {
	switch p := any(v).(type) {
	case *string:
		*p = data
		return nil
	case *json.RawMessage:
		*p = json.RawMessage(data)
		return nil
	case *[]byte:
		*p = []byte(data)
		return nil
	}
	return exactjson.Unmarshal([]byte(data), v)
}
