package golden_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// End-to-end tests of the generated DynamoDB client against a real dynalite
// (issue 2, "What must be shown" items 2 and 3).
//
// Each top-level test starts its own dynalite, so the tests run in parallel
// without sharing state. The subtests of TestDynamoDBRetriesThroughFaultProxy
// share their parent's dynalite and table (creating a table costs dynalite's
// 500 ms CREATING phase) but each has its own fault proxy, client, fake clock
// and item key, so nothing one subtest does is visible to another.

// activeTimeout bounds the real-time wait for a table to become ACTIVE
// (dynalite's CREATING phase lasts 500 ms).
const activeTimeout = 10 * time.Second

// attempts records every AttemptInfo the client reports through
// Options.OnAttempt. Safe for concurrent use, as OnAttempt must be.
type attempts struct {
	mu    sync.Mutex
	infos []runtime.AttemptInfo
}

func (a *attempts) record(i runtime.AttemptInfo) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.infos = append(a.infos, i)
}

func (a *attempts) all() []runtime.AttemptInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]runtime.AttemptInfo(nil), a.infos...)
}

// newClient returns a generated client for endpoint that signs every attempt
// with SigV4 (dynalite requires it) and records every attempt into rec.
func newClient(t *testing.T, endpoint string, rec *attempts, opts ...func(*dynamodb.Options)) *dynamodb.Client {
	t.Helper()
	base := func(o *dynamodb.Options) {
		o.BeforeAttempt = testserver.SignV4("dynamodb", "us-east-1")
		o.OnAttempt = rec.record
	}
	c, err := dynamodb.New(endpoint, append([]func(*dynamodb.Options){base}, opts...)...)
	require.NoError(t, err)
	return c
}

// str and boolean return pointers for optional input fields.
func str(s string) *string { return &s }
func boolean(b bool) *bool { return &b }

// s, n and bl build string, number and bool attribute values; key builds the
// primary key of the test tables (pk string, sk number).
func s(v string) dynamodb.AttributeValue { return dynamodb.AttributeValue{S: &v} }
func n(v string) dynamodb.AttributeValue { return dynamodb.AttributeValue{N: &v} }
func bl(v bool) dynamodb.AttributeValue  { return dynamodb.AttributeValue{BOOL: &v} }
func key(pk, sk string) map[string]dynamodb.AttributeValue {
	return map[string]dynamodb.AttributeValue{"pk": s(pk), "sk": n(sk)}
}

// createTable creates table with hash key pk (string) and range key sk
// (number), billed per request, and waits until it is ACTIVE.
func createTable(t *testing.T, ctx context.Context, c *dynamodb.Client, table string) {
	t.Helper()
	mode := dynamodb.BillingModePayPerRequest
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: table,
		AttributeDefinitions: []dynamodb.AttributeDefinition{
			{AttributeName: "pk", AttributeType: dynamodb.ScalarAttributeTypeS},
			{AttributeName: "sk", AttributeType: dynamodb.ScalarAttributeTypeN},
		},
		KeySchema: []dynamodb.KeySchemaElement{
			{AttributeName: "pk", KeyType: dynamodb.KeyTypeHash},
			{AttributeName: "sk", KeyType: dynamodb.KeyTypeRange},
		},
		BillingMode: &mode,
	})
	require.NoError(t, err)
	require.NotNil(t, out.TableDescription)
	require.Equal(t, table, *out.TableDescription.TableName)
	require.Equal(t, dynamodb.TableStatusCreating, *out.TableDescription.TableStatus)
	require.Equal(t, []dynamodb.KeySchemaElement{
		{AttributeName: "pk", KeyType: dynamodb.KeyTypeHash},
		{AttributeName: "sk", KeyType: dynamodb.KeyTypeRange},
	}, out.TableDescription.KeySchema)
	waitActive(t, ctx, c, table)
}

// waitActive polls DescribeTable until table is ACTIVE, for at most
// activeTimeout of real time: this waits on the server's own timing.
func waitActive(t *testing.T, ctx context.Context, c *dynamodb.Client, table string) {
	t.Helper()
	deadline := time.Now().Add(activeTimeout)
	for {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
		require.NoError(t, err)
		require.NotNil(t, out.Table)
		if *out.Table.TableStatus == dynamodb.TableStatusActive {
			return
		}
		require.Equal(t, dynamodb.TableStatusCreating, *out.Table.TableStatus)
		require.True(t, time.Now().Before(deadline), "table %s not ACTIVE after %v", table, activeTimeout)
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDynamoDBRoundTrip creates a table, puts two items with string, number,
// bool, list and map attributes, reads one back, queries both in range-key
// order and deletes the table, all through the generated client.
func TestDynamoDBRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var rec attempts
	c := newClient(t, testserver.StartDynalite(t), &rec)
	const table = "roundtrip"
	createTable(t, ctx, c, table)

	first := map[string]dynamodb.AttributeValue{
		"pk": s("user#1"), "sk": n("1"),
		"name":    s("Ada"),
		"score":   n("42.5"),
		"active":  bl(true),
		"tags":    {L: []dynamodb.AttributeValue{s("admin"), n("7"), bl(false)}},
		"profile": {M: map[string]dynamodb.AttributeValue{"city": s("London"), "zip": n("10001")}},
	}
	second := map[string]dynamodb.AttributeValue{
		"pk": s("user#1"), "sk": n("2"),
		"name":    s("Grace"),
		"score":   n("-3"),
		"active":  bl(false),
		"tags":    {L: []dynamodb.AttributeValue{}},
		"profile": {M: map[string]dynamodb.AttributeValue{"nested": {M: map[string]dynamodb.AttributeValue{"deep": s("yes")}}}},
	}
	// Put the higher range key first, so the Query order is the server's.
	for _, item := range []map[string]dynamodb.AttributeValue{second, first} {
		out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: table, Item: item})
		require.NoError(t, err)
		require.Equal(t, 1, out.ResultMetadata.Attempts)
		require.Empty(t, out.Attributes)
	}

	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key("user#1", "1"), ConsistentRead: boolean(true)})
	require.NoError(t, err)
	require.Equal(t, 1, got.ResultMetadata.Attempts)
	require.Equal(t, first, got.Item)

	q, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:                 table,
		KeyConditionExpression:    str("pk = :pk"),
		ExpressionAttributeValues: map[string]dynamodb.AttributeValue{":pk": s("user#1")},
	})
	require.NoError(t, err)
	require.Equal(t, int64(2), *q.Count)
	require.Equal(t, int64(2), *q.ScannedCount)
	require.Equal(t, []map[string]dynamodb.AttributeValue{first, second}, q.Items)
	require.Empty(t, q.LastEvaluatedKey)

	del, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: table})
	require.NoError(t, err)
	require.Equal(t, table, *del.TableDescription.TableName)
	require.Equal(t, dynamodb.TableStatusDeleting, *del.TableDescription.TableStatus)

	for _, a := range rec.all() {
		require.Equal(t, 1, a.Attempt, "%s needed a retry against a healthy server", a.Operation)
		require.Equal(t, engine.OutcomeSuccess, a.Outcome, a.Operation)
	}
}

// TestDynamoDBMissingTable checks that a modelled, non-retryable error comes
// back typed after exactly one attempt (retry-behavior.md §4:
// ResourceNotFoundException is non-retryable).
func TestDynamoDBMissingTable(t *testing.T) {
	t.Parallel()
	var rec attempts
	c := newClient(t, testserver.StartDynalite(t), &rec)

	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: "missing", Key: key("k", "1")})
	require.Nil(t, out)
	var rnf *dynamodb.ResourceNotFoundException
	require.ErrorAs(t, err, &rnf)
	require.Equal(t, http.StatusBadRequest, rnf.HTTPStatusCode)
	require.Equal(t, "ResourceNotFoundException", rnf.ErrorCode())
	require.NotEmpty(t, rnf.ErrorMessage())

	infos := rec.all()
	require.Len(t, infos, 1)
	require.Equal(t, 1, infos[0].Attempt)
	require.Equal(t, engine.OutcomeNonRetryable, infos[0].Outcome)
	require.Equal(t, engine.ClassNonRetryable, infos[0].Class)
	require.Equal(t, engine.DefaultRetryQuotaCapacity, infos[0].QuotaBalance, "a non-retryable error spends no tokens")
}

// fakeClockStart is the fake clock's start; any fixed time will do.
var fakeClockStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// jitter is the fixed random value in [0,1) for full jitter:
// delay = jitter × min(20 s, base × 2^n) (retry-behavior.md §5).
const jitter = 0.5

// throttled is dynalite's own shape of a ProvisionedThroughputExceededException.
var throttled = testserver.Fault{
	Status: http.StatusBadRequest,
	Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
	Body:   `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded."}`,
}

// serverError is a bare HTTP 500 without an error code: transient by status
// (retry-behavior.md §4 rule 6).
var serverError = testserver.Fault{Status: http.StatusInternalServerError}

// TestDynamoDBRetriesThroughFaultProxy puts an item through a fault proxy in
// front of dynalite that answers the first attempts with injected faults.
// Every case has a fresh client (full retry quota of 500 tokens), a fake
// clock (nothing sleeps for real) and Rand fixed at 0.5.
func TestDynamoDBRetriesThroughFaultProxy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	upstream := testserver.StartDynalite(t)
	const table = "retries"
	createTable(t, ctx, newClient(t, upstream, new(attempts)), table)

	cases := []struct {
		name   string
		faults []testserver.Fault
		// wantErr checks the call's error; nil means the call succeeds.
		wantErr func(t *testing.T, err error)
		// wantClass is the class of every failed attempt.
		wantClass    engine.Class
		wantAttempts int
		wantQuota    int
		wantSleeps   []time.Duration
	}{
		{
			name:      "two throttling errors then success on attempt 3 refund the last retry cost",
			faults:    []testserver.Fault{throttled, throttled},
			wantClass: engine.ClassThrottling,
			// Quota: 500 − 5 (retry 1) − 5 (retry 2) + 5 (refund of the
			// successful retry's cost) = 495.
			wantAttempts: 3,
			wantQuota:    495,
			// Throttling base delay 1,000 ms, full jitter with rand 0.5:
			// n=0: 0.5 × min(20 s, 1,000 ms × 2^0) = 500 ms;
			// n=1: 0.5 × min(20 s, 1,000 ms × 2^1) = 1,000 ms.
			wantSleeps: []time.Duration{500 * time.Millisecond, 1000 * time.Millisecond},
		},
		{
			name:   "four HTTP 500s exhaust max attempts 4 and wrap the last error",
			faults: []testserver.Fault{serverError, serverError, serverError, serverError},
			wantErr: func(t *testing.T, err error) {
				var maxErr *runtime.MaxAttemptsError
				require.ErrorAs(t, err, &maxErr)
				require.Equal(t, 4, maxErr.Attempts)
				// The error names the service and the operation
				// (runtime.OperationError) by the generated package's name:
				// "dynamodb: PutItem: failed after 4 attempts (max attempts
				// reached): …".
				var opErr *runtime.OperationError
				require.ErrorAs(t, err, &opErr)
				require.Equal(t, "PutItem", opErr.Operation)
				require.Equal(t, "dynamodb", opErr.Service)
				require.Equal(t, "dynamodb: PutItem: failed after 4 attempts (max attempts reached): "+maxErr.Err.Error(), err.Error())
				var apiErr *runtime.APIError
				require.ErrorAs(t, maxErr.Err, &apiErr)
				require.Equal(t, http.StatusInternalServerError, apiErr.HTTPStatusCode)
				require.Empty(t, apiErr.ErrorCode())
			},
			wantClass: engine.ClassTransient,
			// Quota: 500 − 3 × 14 (three transient retries) = 458; the
			// fourth attempt is the last allowed, so it spends nothing.
			wantAttempts: 4,
			wantQuota:    458,
			// Transient base delay 25 ms (the overlay's), full jitter with
			// rand 0.5: n=0: 0.5 × 25 ms = 12.5 ms; n=1: 0.5 × 50 ms =
			// 25 ms; n=2: 0.5 × 100 ms = 50 ms.
			wantSleeps: []time.Duration{12500 * time.Microsecond, 25 * time.Millisecond, 50 * time.Millisecond},
		},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			proxy := testserver.StartFaultProxy(t, upstream)
			proxy.Inject(tc.faults...)
			clock := clocktest.New(fakeClockStart)
			var rec attempts
			c := newClient(t, proxy.URL, &rec, func(o *dynamodb.Options) {
				o.Clock = clock
				o.Rand = func() float64 { return jitter }
			})
			item := key("retry", fmt.Sprint(i))
			item["case"] = s(tc.name)

			out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: table, Item: item})

			infos := rec.all()
			require.Len(t, infos, tc.wantAttempts)
			last := infos[len(infos)-1]
			require.Equal(t, tc.wantQuota, last.QuotaBalance)
			require.Equal(t, tc.wantSleeps, clock.Sleeps())
			var delays []time.Duration
			for _, a := range infos[:len(infos)-1] {
				require.Equal(t, engine.OutcomeRetry, a.Outcome)
				require.Equal(t, tc.wantClass, a.Class)
				delays = append(delays, a.Delay)
			}
			require.Equal(t, tc.wantSleeps, delays, "the delays reported are the delays slept")

			requireReplayed(t, proxy, tc.wantAttempts)
			if tc.wantErr != nil {
				require.Nil(t, out)
				tc.wantErr(t, err)
				require.Equal(t, engine.OutcomeMaxAttempts, last.Outcome)
				require.Equal(t, tc.wantClass, last.Class)
				require.Empty(t, proxy.Forwarded(), "no attempt reached dynalite")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.wantAttempts, out.ResultMetadata.Attempts)
			require.Equal(t, engine.OutcomeSuccess, last.Outcome)
			require.Equal(t, [][]byte{proxy.Bodies()[0]}, proxy.Forwarded(), "dynalite received attempt 1's body, once")
			got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key("retry", fmt.Sprint(i)), ConsistentRead: boolean(true)})
			require.NoError(t, err)
			require.Equal(t, item, got.Item)
		})
	}
}

// requireReplayed checks that the proxy received wantAttempts requests with
// byte-identical bodies and the amz-sdk-request header
// "attempt=N; max=4" for N = 1…wantAttempts.
func requireReplayed(t *testing.T, proxy *testserver.FaultProxy, wantAttempts int) {
	t.Helper()
	bodies, headers := proxy.Bodies(), proxy.Headers()
	require.Len(t, bodies, wantAttempts)
	require.NotEmpty(t, bodies[0])
	for i, b := range bodies {
		require.Equal(t, string(bodies[0]), string(b), "attempt %d's body differs from attempt 1's", i+1)
	}
	want := make([]string, wantAttempts)
	got := make([]string, wantAttempts)
	for i, h := range headers {
		want[i] = fmt.Sprintf("attempt=%d; max=4", i+1)
		got[i] = h.Get("amz-sdk-request")
	}
	require.Equal(t, want, got)
}
