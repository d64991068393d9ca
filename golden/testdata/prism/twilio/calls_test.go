// Twilio calls against Prism (issue 5, "What must be shown" 2). The
// realspecs tier (golden/prism_test.go) copies this file into the package it
// generates from twilio_api_v2010.json and runs it there with
// RETRYGEN_PRISM_SPEC set to the spec's path. It is written against the
// generated API as the generator names things (operation IDs and
// parameters through its identifier sanitiser: FetchCall, AccountSid, Sid);
// when that API changes, adapt the calls here.
package twilio

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// Valid identifiers: Twilio's path parameters are patterns "^XX[0-9a-fA-F]{32}$"
// with a two-letter prefix per resource.
const (
	accountSid = "AC0123456789abcdef0123456789abcdef"
	authToken  = "prism-auth-token"
	hex32      = "0123456789abcdef0123456789abcdef"
)

// newPrismClient starts Prism on the spec, building responses from the
// response schemas, and returns a client whose every request fails the test
// if Prism rejects it (HTTP basic credentials, account SID and auth token,
// sent with the generated WithBasicAuth option), and the recorder of the
// last response body.
func newPrismClient(t *testing.T) (*Client, *testserver.BodyRecorder) {
	t.Helper()
	endpoint := testserver.StartPrism(t, os.Getenv("RETRYGEN_PRISM_SPEC"), testserver.PrismDynamicArgs...)
	rec := &testserver.BodyRecorder{Base: testserver.PrismTransport(t, nil)}
	c, err := New(endpoint, func(o *Options) { o.HTTPClient = &http.Client{Transport: rec} }, WithBasicAuth(accountSid, authToken))
	require.NoError(t, err)
	return c, rec
}

func ptr[T any](v T) *T { return &v }

// TestPrismTwilioOperations calls 28 operations with valid inputs, one of
// them a form-encoded POST.
func TestPrismTwilioOperations(t *testing.T) {
	c, rec := newPrismClient(t)
	calls := []struct {
		name string
		call func(ctx context.Context) (any, error)
	}{
		{"ListAccount", func(ctx context.Context) (any, error) { return c.ListAccount(ctx, &ListAccountInput{}) }},
		{"FetchAccount", func(ctx context.Context) (any, error) {
			return c.FetchAccount(ctx, &FetchAccountInput{Sid: accountSid})
		}},
		{"FetchBalance", func(ctx context.Context) (any, error) {
			return c.FetchBalance(ctx, &FetchBalanceInput{AccountSid: accountSid})
		}},
		{"ListAddress", func(ctx context.Context) (any, error) {
			return c.ListAddress(ctx, &ListAddressInput{AccountSid: accountSid})
		}},
		{"FetchAddress", func(ctx context.Context) (any, error) {
			return c.FetchAddress(ctx, &FetchAddressInput{AccountSid: accountSid, Sid: "AD" + hex32})
		}},
		{"ListApplication", func(ctx context.Context) (any, error) {
			return c.ListApplication(ctx, &ListApplicationInput{AccountSid: accountSid})
		}},
		{"FetchApplication", func(ctx context.Context) (any, error) {
			return c.FetchApplication(ctx, &FetchApplicationInput{AccountSid: accountSid, Sid: "AP" + hex32})
		}},
		{"ListAvailablePhoneNumberLocal", func(ctx context.Context) (any, error) {
			return c.ListAvailablePhoneNumberLocal(ctx, &ListAvailablePhoneNumberLocalInput{AccountSid: accountSid, CountryCode: "US"})
		}},
		{"ListCall", func(ctx context.Context) (any, error) { return c.ListCall(ctx, &ListCallInput{AccountSid: accountSid}) }},
		{"FetchCall", func(ctx context.Context) (any, error) {
			return c.FetchCall(ctx, &FetchCallInput{AccountSid: accountSid, Sid: "CA" + hex32})
		}},
		{"ListConference", func(ctx context.Context) (any, error) {
			return c.ListConference(ctx, &ListConferenceInput{AccountSid: accountSid})
		}},
		{"FetchConference", func(ctx context.Context) (any, error) {
			return c.FetchConference(ctx, &FetchConferenceInput{AccountSid: accountSid, Sid: "CF" + hex32})
		}},
		{"FetchConnectApp", func(ctx context.Context) (any, error) {
			return c.FetchConnectApp(ctx, &FetchConnectAppInput{AccountSid: accountSid, Sid: "CN" + hex32})
		}},
		{"ListIncomingPhoneNumber", func(ctx context.Context) (any, error) {
			return c.ListIncomingPhoneNumber(ctx, &ListIncomingPhoneNumberInput{AccountSid: accountSid})
		}},
		{"FetchIncomingPhoneNumber", func(ctx context.Context) (any, error) {
			return c.FetchIncomingPhoneNumber(ctx, &FetchIncomingPhoneNumberInput{AccountSid: accountSid, Sid: "PN" + hex32})
		}},
		{"ListKey", func(ctx context.Context) (any, error) { return c.ListKey(ctx, &ListKeyInput{AccountSid: accountSid}) }},
		{"FetchKey", func(ctx context.Context) (any, error) {
			return c.FetchKey(ctx, &FetchKeyInput{AccountSid: accountSid, Sid: "SK" + hex32})
		}},
		{"ListMessage", func(ctx context.Context) (any, error) {
			return c.ListMessage(ctx, &ListMessageInput{AccountSid: accountSid})
		}},
		{"FetchMessage", func(ctx context.Context) (any, error) {
			return c.FetchMessage(ctx, &FetchMessageInput{AccountSid: accountSid, Sid: "SM" + hex32})
		}},
		{"ListMedia", func(ctx context.Context) (any, error) {
			return c.ListMedia(ctx, &ListMediaInput{AccountSid: accountSid, MessageSid: "MM" + hex32})
		}},
		{"ListNotification", func(ctx context.Context) (any, error) {
			return c.ListNotification(ctx, &ListNotificationInput{AccountSid: accountSid})
		}},
		{"FetchNotification", func(ctx context.Context) (any, error) {
			return c.FetchNotification(ctx, &FetchNotificationInput{AccountSid: accountSid, Sid: "NO" + hex32})
		}},
		{"ListOutgoingCallerId", func(ctx context.Context) (any, error) {
			return c.ListOutgoingCallerId(ctx, &ListOutgoingCallerIdInput{AccountSid: accountSid})
		}},
		{"ListQueue", func(ctx context.Context) (any, error) {
			return c.ListQueue(ctx, &ListQueueInput{AccountSid: accountSid})
		}},
		{"FetchQueue", func(ctx context.Context) (any, error) {
			return c.FetchQueue(ctx, &FetchQueueInput{AccountSid: accountSid, Sid: "QU" + hex32})
		}},
		{"ListRecording", func(ctx context.Context) (any, error) {
			return c.ListRecording(ctx, &ListRecordingInput{AccountSid: accountSid})
		}},
		{"FetchRecording", func(ctx context.Context) (any, error) {
			return c.FetchRecording(ctx, &FetchRecordingInput{AccountSid: accountSid, Sid: "RE" + hex32})
		}},
		{"CreateMessage (form-encoded body)", func(ctx context.Context) (any, error) {
			return c.CreateMessage(ctx, &CreateMessageInput{
				AccountSid: accountSid, To: "+15005550006", From: ptr("+15005550001"), Body: ptr("retrygen says hi"),
			})
		}},
	}
	require.GreaterOrEqual(t, len(calls), 20)
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.call(context.Background())
			require.NoError(t, err)
			testserver.RequireDecoded(t, rec.Last(), out)
		})
	}
}
