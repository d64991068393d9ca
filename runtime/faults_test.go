package runtime

import (
	"context"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// Faults beyond aws-sdk-go-v2 (issue 9 item 3, "Beyond Go v2"), each with
// exact attempts and delays on a fake clock.

var opLongPoll = &Operation{Name: "ReceiveMessage", RetrySafe: true, LongPolling: true}

func emptyQuota(o *Options) { zero := 0; o.RetryQuotaCapacity = &zero }

func TestLongPollingEmptyQuotaHonoursServerDelay(t *testing.T) {
	// §7: the quota (capacity 0) cannot pay, so a long-polling operation
	// sleeps before returning: the backoff of the error's class, replaced
	// by the server delay header the service declares, clamped as a
	// retry's delay would be. Rand 0.5: transient backoff 25 ms,
	// throttling backoff 500 ms.
	for _, tc := range []struct {
		name   string
		resp   step
		delay  time.Duration
		reason string
	}{
		{"x-amz-retry-after 3000 ms: max(t, min(v, t+5 s))", status(500, engine.HeaderAmzRetryAfter, "3000"), 3 * time.Second, "x-amz-retry-after (long polling)"},
		{"x-amz-retry-after 9000 ms clamped to t + 5 s", status(500, engine.HeaderAmzRetryAfter, "9000"), 5025 * time.Millisecond, "x-amz-retry-after (long polling)"},
		{"Retry-After 60 s clamped to the max server delay", status(503, engine.HeaderRetryAfter, "60"), engine.DefaultMaxServerDelay, "Retry-After (long polling)"},
		{"no header: the transient backoff", status(500), 25 * time.Millisecond, "full jitter (long polling)"},
		{"no header, throttling: the throttling backoff", coded(400, "ThrottlingException"), 500 * time.Millisecond, "full jitter (long polling)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var infos []AttemptInfo
			h := newHarness(t, nil, 0.5, script(tc.resp), func(o *Options) {
				emptyQuota(o)
				o.OnAttempt = func(a AttemptInfo) { infos = append(infos, a) }
			})
			md, err := h.call(context.Background(), opLongPoll)
			var qe *QuotaExhaustedError
			require.ErrorAs(t, err, &qe)
			require.Equal(t, 1, md.Attempts)
			require.Equal(t, []time.Duration{tc.delay}, h.clock.Sleeps())
			require.Len(t, infos, 1)
			require.Equal(t, tc.reason, infos[0].DelayReason)
		})
	}
}

// crcStep answers 200 with body and an x-amz-crc32 of sum.
func crcStep(body string, sum uint32) step {
	return step{status: 200, header: http.Header{"X-Amz-Crc32": {strconv.FormatUint(uint64(sum), 10)}}, body: body}
}

func TestChecksumMismatchRetriedOnRetrySafeOps(t *testing.T) {
	// A 2xx whose CRC32 does not match x-amz-crc32 was corrupted on the way:
	// a transient I/O failure (retry cost 14), retried after 25 ms (full
	// jitter, Rand 0.5); the second, intact response is decoded.
	body := `{"Item":{"id":"1"}}`
	svc := testService()
	svc.ChecksumHeader = "x-amz-crc32"
	sc := script(crcStep(body, crc32.ChecksumIEEE([]byte(body))+1), crcStep(body, crc32.ChecksumIEEE([]byte(body))))
	var balances []int
	h := newHarness(t, svc, 0.5, sc, func(o *Options) { o.OnAttempt = func(a AttemptInfo) { balances = append(balances, a.QuotaBalance) } })
	var out struct{ Item map[string]string }
	md, err := h.c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&out))
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []time.Duration{25 * time.Millisecond}, h.clock.Sleeps())
	require.Equal(t, []int{486, 500}, balances, "paid 14, refunded on success")
	require.Equal(t, "1", out.Item["id"])
	sc.requireAllClosed(t)
}

func TestChecksumMismatchOnNonRetrySafeOpSaysWhy(t *testing.T) {
	body := `{}`
	svc := testService()
	svc.ChecksumHeader = "x-amz-crc32"
	h := newHarness(t, svc, 0.5, script(crcStep(body, 7)), nil)
	md, err := h.call(context.Background(), opPost)
	var nrs *NotRetrySafeError
	require.ErrorAs(t, err, &nrs)
	var ce *ChecksumError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "7", ce.Want)
	require.Equal(t, crc32.ChecksumIEEE([]byte(body)), ce.Got)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, h.clock.Sleeps())
	require.Equal(t, "test: PutThing: not retried after 1 attempt: the operation is not retry-safe and the request may have reached the server: "+
		"decoding the HTTP 200 response: response checksum mismatch: x-amz-crc32 is 7, body has 2745614147", err.Error())
}

// truncatedServer answers 200 with Content-Length 100 but only 10 bytes of
// body on the first request, then a whole body.
func truncatedServer(t *testing.T) *recordingServer {
	return newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n > 1 {
			_, _ = io.WriteString(w, `{"ok":true}`)
			return
		}
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"ok":true`)
		// Returning with fewer bytes than declared makes net/http close the
		// connection: the client reads io.ErrUnexpectedEOF.
	})
}

func TestTruncated2xxRetriedOnRetrySafeOps(t *testing.T) {
	// The body ends before its Content-Length: a transient I/O failure,
	// retried after 25 ms (full jitter, Rand 0.5), then decoded whole.
	srv := truncatedServer(t)
	c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.Rand = fixedRand(0.5) })
	var out struct{ OK bool }
	md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&out))
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.True(t, out.OK)
	require.Equal(t, []time.Duration{25 * time.Millisecond}, clock.Sleeps())
	require.Equal(t, 500, c.RetryQuota().Balance(), "14 paid, refunded by the successful retry")
}

func TestTruncated2xxOnNonRetrySafeOpSaysWhy(t *testing.T) {
	srv := truncatedServer(t)
	c, clock := loopbackClient(t, testService(), srv.URL, nil)
	var out struct{ OK bool }
	md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", Body: []byte(`{}`)}, nil, DecodeJSON(&out))
	var nrs *NotRetrySafeError
	require.ErrorAs(t, err, &nrs)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, clock.Sleeps())
	require.Contains(t, err.Error(), "not retry-safe and the request may have reached the server")
}

func TestDecodeErrorOf2xxIsNotRetried(t *testing.T) {
	// A whole body that is not the expected JSON is no I/O failure: a
	// *DecodeError after 1 attempt, even on a retry-safe operation.
	h := newHarness(t, nil, 0.5, script(step{status: 200, body: `[1,2]`}), nil)
	var out struct{ OK bool }
	md, err := h.c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&out))
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	var nrs *NotRetrySafeError
	require.False(t, errors.As(err, &nrs))
	require.Equal(t, 1, md.Attempts)
}

func TestAdaptiveLimiterUpdatedAfterTransportFailure(t *testing.T) {
	// aws-sdk-go-v2 (aws/retry/adaptive.go handleResponse) updates the rate
	// limiter after every attempt, transport failures included, as a
	// non-throttle. Two 429s, a connection reset, a 200 (Rand 0.5): the
	// reset's update moves the fill rate from 0.5 to 1.12 tokens/s (it
	// stayed at 0.5 while transport failures were skipped).
	var rates []float64
	h := newHarness(t, nil, 0.5, script(status(429), status(429), failure(syscall.ECONNRESET), status(200)), func(o *Options) {
		o.RetryMode = ModeAdaptive
		o.MaxAttempts = 4
		o.OnAttempt = func(a AttemptInfo) { rates = append(rates, a.LimiterRate) }
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{0.5, 0.5, 1.12, 3.424}, rates, 1e-9)
}
