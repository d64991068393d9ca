package golden_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/runtime"
)

// TestRequiredMembersRefusedBeforeSending: a nil input, or one without a
// required map, is refused with aws-sdk-go-v2's validation text before the
// first attempt: no request reaches the server, no attempt is made.
func TestRequiredMembersRefusedBeforeSending(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = w.Write([]byte("{}"))
	}))
	t.Cleanup(srv.Close)
	rec := &attempts{}
	c := newClient(t, srv.URL, rec)
	for _, tc := range []struct {
		in   *dynamodb.GetItemInput
		want string
	}{
		{nil, "dynamodb: GetItem: 2 validation error(s) found. - missing required field, GetItemInput.Key. - missing required field, GetItemInput.TableName."},
		{&dynamodb.GetItemInput{TableName: "t"}, "dynamodb: GetItem: 1 validation error(s) found. - missing required field, GetItemInput.Key."},
	} {
		_, err := c.GetItem(context.Background(), tc.in)
		require.EqualError(t, err, tc.want)
		var oe *runtime.OperationError
		var ip *runtime.InvalidParamsError
		require.True(t, errors.As(err, &oe) && errors.As(err, &ip), "%T", err)
	}
	require.Zero(t, requests.Load())
	require.Empty(t, rec.all())
	_, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: "t", Key: map[string]dynamodb.AttributeValue{}})
	require.NoError(t, err)
	require.EqualValues(t, 1, requests.Load())
}
