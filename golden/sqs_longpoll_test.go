package golden_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/sqs"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// sqsThrottled is the AWS query protocol error SQS answers a throttled
// request with: HTTP 400, so only its code makes it retryable.
const sqsThrottled = `<?xml version="1.0"?><ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><Error><Type>Sender</Type><Code>RequestThrottled</Code><Message>Request is throttled.</Message><Detail/></Error><RequestId>7a62c49f-347e-4fc4-9331-6e8e7a96aa73</RequestId></ErrorResponse>`

// sqsReceived is a ReceiveMessage answer with one message.
const sqsReceived = `<ReceiveMessageResponse><ReceiveMessageResult><Message><MessageId>m-1</MessageId><Body>hello</Body></Message></ReceiveMessageResult></ReceiveMessageResponse>`

// sqsServer is a loopback server speaking the SQS query protocol from a
// script of (status, body) answers; it records every request's query.
type sqsServer struct {
	mu      sync.Mutex
	answers []sqsAnswer
	queries []url.Values
}

type sqsAnswer struct {
	status int
	body   string
}

func (s *sqsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries = append(s.queries, r.URL.Query())
	a := sqsAnswer{status: 599, body: "script exhausted"}
	if len(s.answers) > 0 {
		a, s.answers = s.answers[0], s.answers[1:]
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(a.status)
	_, _ = w.Write([]byte(a.body))
}

// TestSQSLongPolling runs the generated SQS client against a loopback
// server. ReceiveMessage is long polling (specs/sqs.overlay.yaml): when the
// retry quota cannot pay for a retry it still sleeps the backoff of the
// error's class before returning (retry-behavior.md §7); SendMessage does
// not. Errors are XML: RequestThrottled in <Error><Code> makes an HTTP 400
// throttling. Fake clock, rand 0.5.
func TestSQSLongPolling(t *testing.T) {
	empty := 0
	tests := []struct {
		name       string
		answers    []sqsAnswer
		quota      *int
		receive    bool // ReceiveMessage (long polling) or SendMessage
		wantErr    func(t *testing.T, err error)
		wantSleeps []time.Duration
		wantSent   int
	}{
		{
			name:    "quota empty, throttled by XML code: ReceiveMessage sleeps 0.5 × 1,000 ms, then returns",
			answers: []sqsAnswer{{400, sqsThrottled}},
			quota:   &empty, receive: true,
			wantErr: func(t *testing.T, err error) {
				var q *runtime.QuotaExhaustedError
				require.ErrorAs(t, err, &q)
				require.Equal(t, 0, q.Available)
				require.Equal(t, engine.RetryCostThrottling, q.Needed)
				var api *runtime.APIError
				require.ErrorAs(t, err, &api)
				require.Equal(t, "RequestThrottled", api.ErrorCode())
				require.Equal(t, "Request is throttled.", api.ErrorMessage())
				require.Equal(t, "7a62c49f-347e-4fc4-9331-6e8e7a96aa73", api.RequestID)
			},
			wantSleeps: []time.Duration{500 * time.Millisecond},
			wantSent:   1,
		},
		{
			name:    "quota empty, HTTP 500: ReceiveMessage sleeps the transient backoff 0.5 × 50 ms",
			answers: []sqsAnswer{{500, `<ErrorResponse><Error><Code>InternalFailure</Code></Error></ErrorResponse>`}},
			quota:   &empty, receive: true,
			wantErr: func(t *testing.T, err error) {
				var q *runtime.QuotaExhaustedError
				require.ErrorAs(t, err, &q)
				require.Equal(t, engine.RetryCostTransient, q.Needed)
			},
			wantSleeps: []time.Duration{25 * time.Millisecond},
			wantSent:   1,
		},
		{
			name:    "quota empty: SendMessage is not long polling and returns at once",
			answers: []sqsAnswer{{400, sqsThrottled}},
			quota:   &empty,
			wantErr: func(t *testing.T, err error) {
				var q *runtime.QuotaExhaustedError
				require.ErrorAs(t, err, &q)
			},
			wantSleeps: nil,
			wantSent:   1,
		},
		{
			name:       "quota full: throttled once, then the message arrives",
			answers:    []sqsAnswer{{400, sqsThrottled}, {200, sqsReceived}},
			receive:    true,
			wantSleeps: []time.Duration{500 * time.Millisecond},
			wantSent:   2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &sqsServer{answers: tt.answers}
			hs := httptest.NewServer(srv)
			defer hs.Close()
			clock := clocktest.New(fakeClockStart)
			c, err := sqs.New(hs.URL, func(o *sqs.Options) {
				o.Clock, o.Rand = clock, func() float64 { return 0.5 }
				o.RetryQuotaCapacity = tt.quota
				o.RetryMode = runtime.ModeStandard
			})
			require.NoError(t, err)
			ctx := context.Background()
			wait := int64(20)
			if tt.receive {
				out, err := c.GETReceiveMessage(ctx, &sqs.GETReceiveMessageInput{AccountNumber: 123456789012, QueueName: "jobs", WaitTimeSeconds: &wait})
				if tt.wantErr == nil {
					require.NoError(t, err)
					require.Len(t, out.Messages, 1, "the typed XML result (x-protocol xmlResultWrapper)")
					require.Equal(t, "hello", *out.Messages[0].Body)
					require.Equal(t, "m-1", *out.Messages[0].MessageId)
					require.Equal(t, 2, out.ResultMetadata.Attempts)
				} else {
					tt.wantErr(t, err)
				}
			} else {
				_, err := c.GETSendMessage(ctx, &sqs.GETSendMessageInput{AccountNumber: 123456789012, QueueName: "jobs", MessageBody: "hi"})
				tt.wantErr(t, err)
			}
			require.Equal(t, tt.wantSleeps, clock.Sleeps())
			require.Len(t, srv.queries, tt.wantSent)
			for _, q := range srv.queries {
				if tt.receive {
					require.Equal(t, url.Values{"Action": {"ReceiveMessage"}, "Version": {"2012-11-05"}, "WaitTimeSeconds": {"20"}}, q)
				} else {
					require.Equal(t, "SendMessage", q.Get("Action"))
				}
			}
		})
	}
}
