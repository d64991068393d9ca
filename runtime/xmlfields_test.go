package runtime

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// sqsError is an AWS query protocol error body as SQS sends it.
const sqsError = `<?xml version="1.0"?>
<ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/">
  <Error>
    <Type>Sender</Type>
    <Code>RequestThrottled</Code>
    <Message>Request is throttled.</Message>
    <Detail/>
  </Error>
  <RequestId>42d59b56-7407-4c4a-be0f-4c88daeea257</RequestId>
</ErrorResponse>`

func TestXMLFields(t *testing.T) {
	tests := []struct {
		name, body string
		paths      []string
		want       string
	}{
		{"query protocol code", sqsError, []string{"Error.Code"}, "RequestThrottled"},
		{"query protocol message", sqsError, []string{"Error.Message"}, "Request is throttled."},
		{"request ID below the root", sqsError, []string{"RequestId"}, "42d59b56-7407-4c4a-be0f-4c88daeea257"},
		{"EC2 form, first of repeated elements", `<Response><Errors><Error><Code>RequestLimitExceeded</Code></Error><Error><Code>Other</Code></Error></Errors></Response>`,
			[]string{"Errors.Error.Code"}, "RequestLimitExceeded"},
		{"first path that names a value wins", sqsError, []string{"Error.Nope", "Error.Type"}, "Sender"},
		{"an element with children is not a value", sqsError, []string{"Error"}, ""},
		{"empty element", sqsError, []string{"Error.Detail"}, ""},
		{"malformed XML has no fields", `<ErrorResponse><Error><Code>X</Code></ErrorResponse>`, []string{"Error.Code"}, ""},
		{"trailing garbage is malformed", `<a><b>1</b></a><c>`, []string{"b"}, ""},
		{"elements past the depth bound are skipped", strings.Repeat("<e>", 40) + "deep" + strings.Repeat("</e>", 40), []string{strings.TrimSuffix(strings.Repeat("e.", 39), ".")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields := xmlFields([]byte(tt.body))
			got := ""
			for _, p := range tt.paths {
				if got = stringField(fields, p); got != "" {
					break
				}
			}
			require.Equal(t, tt.want, got)
		})
	}
}

// TestXMLErrorCodeClassifies: an HTTP 400 whose XML body carries a
// throttling code is throttling (retried after the throttling base delay),
// not non-retryable by its status; the code, message and request ID come from
// the declared element paths.
func TestXMLErrorCodeClassifies(t *testing.T) {
	svc := &Service{Name: "Amazon Simple Queue Service",
		ErrorCodeFields: []string{"Error.Code"}, ErrorMessageFields: []string{"Error.Message"}, RequestIDFields: []string{"RequestId"}}
	xmlHeader := http.Header{"Content-Type": {"text/xml"}}
	sc := script(step{status: 400, header: xmlHeader, body: sqsError}, step{status: 400, header: xmlHeader, body: strings.Replace(sqsError, "RequestThrottled", "AWS.SimpleQueueService.NonExistentQueue", 1)})
	clock := clocktest.New(epoch)
	c, err := NewClient(svc, "http://sqs.test", Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0.5)})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "AWS.SimpleQueueService.NonExistentQueue", api.ErrorCode(), "the second answer is not retried: non-retryable by code and status")
	require.Equal(t, "Request is throttled.", api.ErrorMessage())
	require.Equal(t, "42d59b56-7407-4c4a-be0f-4c88daeea257", api.RequestID)
	require.Equal(t, []time.Duration{500 * time.Millisecond}, clock.Sleeps(), "RequestThrottled: throttling, 0.5 × 1,000 ms")
	require.Equal(t, engine.DefaultRetryQuotaCapacity-engine.RetryCostThrottling, c.RetryQuota().Balance())
}
