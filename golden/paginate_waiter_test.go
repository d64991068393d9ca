package golden_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// Paginators and waiters of the generated DynamoDB client (issue 23, "What
// must be shown" 1): waiter delays on a fake clock against a scripted
// loopback server, then dynalite in real time.

// scripted answers DescribeTable with its answers in order (the last one
// repeated), recording each request's target.
type scripted struct {
	mu      sync.Mutex
	answers []scriptedAnswer
	calls   int
}

type scriptedAnswer struct {
	status int
	body   string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	a := s.answers[min(s.calls, len(s.answers)-1)]
	s.calls++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func tableStatus(status string) scriptedAnswer {
	return scriptedAnswer{200, `{"Table":{"TableName":"t","TableStatus":"` + status + `"}}`}
}

var (
	notFound  = scriptedAnswer{400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`}
	throttle  = scriptedAnswer{400, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`}
	badFilter = scriptedAnswer{400, `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"1 validation error detected"}`}
)

// TestTableExistsWaiterOnFakeClock: not found (retry), CREATING (retry), a
// throttled poll the retry engine retries (one poll, two attempts), CREATING,
// then ACTIVE (success). The waiter's delays are smithy's for 20 s / 120 s
// with the seeded jitter, each within its bounds; the throttled attempt's
// backoff is the engine's, between them.
func TestTableExistsWaiterOnFakeClock(t *testing.T) {
	t.Parallel()
	srv := &scripted{answers: []scriptedAnswer{notFound, tableStatus("CREATING"), throttle, tableStatus("CREATING"), tableStatus("CREATING"), tableStatus("ACTIVE")}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	clock := clocktest.New(time.Unix(1_700_000_000, 0))
	var rec attempts
	c, err := dynamodb.New(hs.URL, func(o *dynamodb.Options) {
		o.Clock, o.Rand, o.OnAttempt = clock, func() float64 { return 0.5 }, rec.record
	})
	require.NoError(t, err)
	var polls []time.Duration
	out, err := c.WaitUntilTableExists(context.Background(), &dynamodb.DescribeTableInput{TableName: "t"}, time.Hour,
		func(o *runtime.WaiterOptions) {
			o.OnPoll = func(_ int, _ runtime.WaiterState, d time.Duration) { polls = append(polls, d) }
		})
	require.NoError(t, err)
	require.Equal(t, dynamodb.TableStatusActive, *out.Table.TableStatus)
	require.Equal(t, 6, srv.calls, "5 polls, one of them retried once")
	// Delays after polls 1–4: 20 s; 20 + 0.5×20; 20 + 0.5×60; 20 + 0.5×100.
	want := []time.Duration{20 * time.Second, 30 * time.Second, 50 * time.Second, 70 * time.Second}
	require.Equal(t, append(want, 0), polls)
	for i, d := range want {
		ceiling := min(20*time.Second<<i, 120*time.Second)
		require.True(t, d >= 20*time.Second && (d < ceiling || i == 0), "delay %d = %v outside [20s, %v)", i+1, d, ceiling)
	}
	// The fake clock slept the waiter delays and, after the throttled
	// attempt, the engine's throttling backoff (full jitter: 0.5 × 1 s).
	require.Equal(t, []time.Duration{20 * time.Second, 30 * time.Second, 500 * time.Millisecond, 50 * time.Second, 70 * time.Second}, clock.Sleeps())
	infos := rec.all()
	require.Len(t, infos, 6)
	require.Equal(t, engine.ClassThrottling, infos[2].Class)
	require.True(t, infos[2].Retry)
}

// TestTableExistsWaiterMaxWait: a table that stays CREATING ends the wait at
// the caller's max wait, with a *runtime.WaiterTimeoutError; a validation
// error no acceptor matches ends it at once with that error; and
// TableNotExists succeeds on ResourceNotFoundException.
func TestTableExistsWaiterMaxWait(t *testing.T) {
	t.Parallel()
	srv := &scripted{answers: []scriptedAnswer{tableStatus("CREATING")}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	clock := clocktest.New(time.Unix(1_700_000_000, 0))
	c, err := dynamodb.New(hs.URL, func(o *dynamodb.Options) { o.Clock, o.Rand = clock, func() float64 { return 0.5 } })
	require.NoError(t, err)
	_, err = c.WaitUntilTableExists(context.Background(), &dynamodb.DescribeTableInput{TableName: "t"}, 3*time.Minute)
	var timeout *runtime.WaiterTimeoutError
	require.ErrorAs(t, err, &timeout)
	var slept time.Duration
	for _, d := range clock.Sleeps() {
		slept += d
	}
	// 20, 30, 50, then the clamp: 180 − 100 − 20 = 60; at 160 s only 20 s
	// (MinDelay) remain and the next delay clamps to zero.
	require.Equal(t, []time.Duration{20 * time.Second, 30 * time.Second, 50 * time.Second, 60 * time.Second}, clock.Sleeps())
	require.LessOrEqual(t, slept, 3*time.Minute-20*time.Second)
	require.Equal(t, 5, timeout.Attempts)

	srv2 := &scripted{answers: []scriptedAnswer{badFilter}}
	hs2 := httptest.NewServer(srv2)
	defer hs2.Close()
	c2, err := dynamodb.New(hs2.URL, func(o *dynamodb.Options) { o.Clock = clocktest.New(time.Unix(0, 0)) })
	require.NoError(t, err)
	_, err = c2.WaitUntilTableExists(context.Background(), &dynamodb.DescribeTableInput{TableName: "t"}, time.Hour)
	require.True(t, runtime.ErrorCodeIs(err, "ValidationException"), "%v", err)
	require.Equal(t, 1, srv2.calls)

	srv3 := &scripted{answers: []scriptedAnswer{tableStatus("DELETING"), notFound}}
	hs3 := httptest.NewServer(srv3)
	defer hs3.Close()
	clock3 := clocktest.New(time.Unix(0, 0))
	c3, err := dynamodb.New(hs3.URL, func(o *dynamodb.Options) { o.Clock = clock3 })
	require.NoError(t, err)
	out, err := c3.WaitUntilTableNotExists(context.Background(), &dynamodb.DescribeTableInput{TableName: "t"}, time.Hour,
		func(o *runtime.WaiterOptions) { o.MinDelay, o.MaxDelay = time.Second, 2*time.Second })
	require.NoError(t, err)
	require.Nil(t, out, "success on an error: no output")
	require.Equal(t, []time.Duration{time.Second}, clock3.Sleeps(), "the caller's min delay")
}

// TestDynamoDBWaitersAndScanPaginator runs against dynalite in real time
// (tables leave CREATING and DELETING after 500 ms): CreateTable then
// TableExists returns once ACTIVE (waiter delays 50–200 ms by option);
// 1,000 items put; a Scan paginator with Limit 100 through a fault proxy
// that throttles the 6th page once yields the 1,000 items in 11 Scan calls
// (10 full pages and the final empty one, as aws-sdk-go-v2's paginator
// makes), the throttled page retried by the engine; DeleteTable then
// TableNotExists.
func TestDynamoDBWaitersAndScanPaginator(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	endpoint := testserver.StartDynalite(t)
	var rec attempts
	c := newClient(t, endpoint, &rec)
	const table = "paged"
	mode := dynamodb.BillingModePayPerRequest
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
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
	small := func(o *runtime.WaiterOptions) { o.MinDelay, o.MaxDelay = 50*time.Millisecond, 200*time.Millisecond }
	start := time.Now()
	var existsPolls int
	out, err := c.WaitUntilTableExists(ctx, &dynamodb.DescribeTableInput{TableName: table}, 30*time.Second, small,
		func(o *runtime.WaiterOptions) {
			o.OnPoll = func(int, runtime.WaiterState, time.Duration) { existsPolls++ }
		})
	require.NoError(t, err)
	require.Equal(t, dynamodb.TableStatusActive, *out.Table.TableStatus)
	require.Greater(t, existsPolls, 1, "the table was CREATING at first")
	t.Logf("TableExists: %d polls, %v", existsPolls, time.Since(start))

	for batch := range 40 {
		var writes []dynamodb.WriteRequest
		for i := range 25 {
			n := batch*25 + i
			writes = append(writes, dynamodb.WriteRequest{PutRequest: &dynamodb.PutRequest{Item: key(fmt.Sprintf("user#%04d", n), strconv.Itoa(n))}})
		}
		bo, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]dynamodb.WriteRequest{table: writes}})
		require.NoError(t, err)
		require.Empty(t, bo.UnprocessedItems)
	}

	proxy := testserver.StartFaultProxy(t, endpoint)
	var scanRec attempts
	sc := newClient(t, proxy.URL, &scanRec, func(o *dynamodb.Options) {
		o.Clock, o.Rand = clocktest.New(time.Unix(0, 0)), func() float64 { return 0.5 }
	})
	limit := int64(100)
	seen := map[string]bool{}
	pages := 0
	for page, err := range sc.ScanPages(ctx, &dynamodb.ScanInput{TableName: table, Limit: &limit}) {
		require.NoError(t, err)
		pages++
		for _, item := range page.Items {
			seen[*item["pk"].S] = true
		}
		if pages == 5 {
			proxy.Inject(testserver.Fault{Status: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body: `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate exceeded"}`})
		}
	}
	require.Equal(t, 11, pages, "10 full pages and the final empty one")
	require.Len(t, seen, 1000)
	require.Len(t, proxy.Forwarded(), 11, "11 Scan calls reached dynalite")
	require.Len(t, proxy.Bodies(), 12, "the 6th page's first attempt was throttled and retried")
	infos := scanRec.all()
	require.Len(t, infos, 12)
	require.Equal(t, engine.ClassThrottling, infos[5].Class)
	require.True(t, infos[5].Retry)
	require.Equal(t, 2, pagesAttempts(infos, 6), "the 6th page took two attempts")
	// The retried attempt sent the same ExclusiveStartKey as the throttled one.
	bodies := proxy.Bodies()
	require.JSONEq(t, string(bodies[5]), string(bodies[6]))
	var sixth struct{ ExclusiveStartKey map[string]any }
	require.NoError(t, json.Unmarshal(bodies[5], &sixth))
	require.NotEmpty(t, sixth.ExclusiveStartKey)

	// The item iterator sees the same 1,000 items.
	count := 0
	for item, err := range c.ScanItems(ctx, &dynamodb.ScanInput{TableName: table, Limit: &limit}) {
		require.NoError(t, err)
		require.NotNil(t, item["pk"].S)
		count++
	}
	require.Equal(t, 1000, count)

	// A page that fails for good (a non-retryable error on page 4) ends the
	// iterator after the 3 good pages; resuming from the last good page's
	// LastEvaluatedKey yields the rest, each item once.
	resumed := map[string]bool{}
	var last *dynamodb.ScanOutput
	got := 0
	for page, err := range sc.ScanPages(ctx, &dynamodb.ScanInput{TableName: table, Limit: &limit}) {
		if err != nil {
			require.Nil(t, page)
			require.True(t, runtime.ErrorCodeIs(err, "ValidationException"), "%v", err)
			break
		}
		got++
		last = page
		for _, item := range page.Items {
			resumed[*item["pk"].S] = true
		}
		if got == 3 {
			proxy.Inject(testserver.Fault{Status: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body: `{"__type":"com.amazon.coral.validate#ValidationException","message":"injected"}`})
		}
	}
	require.Equal(t, 3, got)
	require.Len(t, resumed, 300)
	for page, err := range sc.ScanPages(ctx, &dynamodb.ScanInput{TableName: table, Limit: &limit, ExclusiveStartKey: last.LastEvaluatedKey}) {
		require.NoError(t, err)
		for _, item := range page.Items {
			require.False(t, resumed[*item["pk"].S], "an item seen twice")
			resumed[*item["pk"].S] = true
		}
	}
	require.Len(t, resumed, 1000)

	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: table})
	require.NoError(t, err)
	var gonePolls int
	gone, err := c.WaitUntilTableNotExists(ctx, &dynamodb.DescribeTableInput{TableName: table}, 30*time.Second, small,
		func(o *runtime.WaiterOptions) {
			o.OnPoll = func(int, runtime.WaiterState, time.Duration) { gonePolls++ }
		})
	require.NoError(t, err)
	require.Nil(t, gone)
	require.Greater(t, gonePolls, 1, "the table was DELETING at first")
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
	var rnf *dynamodb.ResourceNotFoundException
	require.ErrorAs(t, err, &rnf)
}

// pagesAttempts returns how many attempts the page-th call (from 1) made,
// from the attempt records of calls made one after another.
func pagesAttempts(infos []runtime.AttemptInfo, page int) int {
	call := 1
	for _, a := range infos {
		if call == page {
			if !a.Retry {
				return a.Attempt
			}
		} else if !a.Retry {
			call++
		}
	}
	return 0
}
