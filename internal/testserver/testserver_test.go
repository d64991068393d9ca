package testserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// awsJSONCall describes one AWS JSON protocol request to a local server.
type awsJSONCall struct {
	name        string
	target      string // X-Amz-Target
	body        string
	contentType string
	service     string // SigV4 service name; "" sends the request unsigned
	wantStatus  int
	wantBody    map[string]any // exact JSON body
}

// TestAWSServers sends raw AWS JSON requests to dynalite and kinesalite and
// checks their exact answers, signed and unsigned.
func TestAWSServers(t *testing.T) {
	servers := []struct {
		name  string
		start func(testing.TB) string
		calls []awsJSONCall
	}{
		{"dynalite", testserver.StartDynalite, []awsJSONCall{
			{
				name: "signed ListTables lists no tables", target: "DynamoDB_20120810.ListTables", body: `{}`,
				contentType: "application/x-amz-json-1.0", service: "dynamodb",
				wantStatus: http.StatusOK, wantBody: map[string]any{"TableNames": []any{}},
			},
			{
				name: "unsigned ListTables is rejected for a missing token", target: "DynamoDB_20120810.ListTables", body: `{}`,
				contentType: "application/x-amz-json-1.0",
				wantStatus:  http.StatusBadRequest, wantBody: map[string]any{
					"__type":  "com.amazon.coral.service#MissingAuthenticationTokenException",
					"message": "Request is missing Authentication Token",
				},
			},
			{
				name: "DescribeTable of a missing table is ResourceNotFoundException", target: "DynamoDB_20120810.DescribeTable", body: `{"TableName":"nope"}`,
				contentType: "application/x-amz-json-1.0", service: "dynamodb",
				wantStatus: http.StatusBadRequest, wantBody: map[string]any{
					"__type":  "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
					"message": "Requested resource not found: Table: nope not found",
				},
			},
		}},
		{"kinesalite", testserver.StartKinesalite, []awsJSONCall{
			{
				name: "signed ListStreams lists no streams", target: "Kinesis_20131202.ListStreams", body: `{}`,
				contentType: "application/x-amz-json-1.1", service: "kinesis",
				wantStatus: http.StatusOK, wantBody: map[string]any{"StreamNames": []any{}, "HasMoreStreams": false},
			},
			{
				name: "unsigned ListStreams is rejected for a missing token", target: "Kinesis_20131202.ListStreams", body: `{}`,
				contentType: "application/x-amz-json-1.1",
				wantStatus:  http.StatusBadRequest, wantBody: map[string]any{
					"__type":  "MissingAuthenticationTokenException",
					"message": "Missing Authentication Token",
				},
			},
		}},
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			endpoint := srv.start(t)
			for _, c := range srv.calls {
				t.Run(c.name, func(t *testing.T) {
					req, err := http.NewRequest(http.MethodPost, endpoint+"/", strings.NewReader(c.body))
					require.NoError(t, err)
					req.Header.Set("X-Amz-Target", c.target)
					req.Header.Set("Content-Type", c.contentType)
					if c.service != "" {
						require.NoError(t, testserver.SignV4(c.service, "us-east-1")(req, 1))
					}
					status, got := doJSON(t, req)
					require.Equal(t, c.wantStatus, status)
					require.Equal(t, c.wantBody, got)
				})
			}
		})
	}
}

// doJSON sends req and returns the status and the decoded JSON body.
func doJSON(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(raw, &got), "body: %s", raw)
	return resp.StatusCode, got
}
