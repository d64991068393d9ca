package golden_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/kinesis"
	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// kinesisThrottled is kinesalite's own shape of a throttled PutRecord or
// GetRecords: HTTP 400 with the code in __type.
var kinesisThrottled = testserver.Fault{
	Status: http.StatusBadRequest,
	Header: http.Header{"Content-Type": {"application/x-amz-json-1.1"}},
	Body:   `{"__type":"ProvisionedThroughputExceededException","message":"Rate exceeded for shard shardId-000000000000 in stream events under account 000000000000."}`,
}

// TestKinesisThroughFaultProxy runs the generated Kinesis client against a
// real kinesalite@3.3.3 through the fault proxy: CreateStream, then (once
// the stream is ACTIVE) PutRecord and GetRecords, each answered first by an
// injected ProvisionedThroughputExceededException, which is retried as
// throttling: one retry after 0.5 × 1,000 ms (fake clock, rand 0.5), costing
// 5 quota tokens that the successful retry refunds.
func TestKinesisThroughFaultProxy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proxy := testserver.StartFaultProxy(t, testserver.StartKinesalite(t))
	var rec attempts
	clock := clocktest.New(fakeClockStart)
	c, err := kinesis.New(proxy.URL, func(o *kinesis.Options) {
		o.BeforeAttempt = testserver.SignV4("kinesis", "us-east-1")
		o.OnAttempt = rec.record
		o.Clock, o.Rand = clock, func() float64 { return jitter }
		o.RetryMode, o.MaxAttempts = runtime.ModeStandard, 3
	})
	require.NoError(t, err)

	const stream = "events"
	_, err = c.CreateStream(ctx, &kinesis.CreateStreamInput{StreamName: stream, ShardCount: 1})
	require.NoError(t, err)
	var shard string
	deadline := time.Now().Add(activeTimeout) // kinesalite's CREATING lasts 500 ms of real time
	for {
		d, err := c.DescribeStream(ctx, &kinesis.DescribeStreamInput2{StreamName: stream})
		require.NoError(t, err)
		if d.StreamDescription.StreamStatus == kinesis.StreamStatusActive {
			require.Len(t, d.StreamDescription.Shards, 1)
			shard = d.StreamDescription.Shards[0].ShardId
			break
		}
		require.Equal(t, kinesis.StreamStatusCreating, d.StreamDescription.StreamStatus)
		require.True(t, time.Now().Before(deadline), "stream not ACTIVE after %v", activeTimeout)
		time.Sleep(50 * time.Millisecond)
	}
	require.Empty(t, clock.Sleeps(), "a healthy server needs no retry")

	proxy.Inject(kinesisThrottled)
	put, err := c.PutRecord(ctx, &kinesis.PutRecordInput{StreamName: stream, PartitionKey: "user-1", Data: "aGVsbG8="})
	require.NoError(t, err)
	require.Equal(t, 2, put.ResultMetadata.Attempts)
	require.Equal(t, shard, put.ShardId)
	require.NotEmpty(t, put.SequenceNumber)
	require.Equal(t, []time.Duration{500 * time.Millisecond}, clock.Sleeps())

	it, err := c.GetShardIterator(ctx, &kinesis.GetShardIteratorInput{StreamName: stream, ShardId: shard, ShardIteratorType: kinesis.ShardIteratorTypeTrimHorizon})
	require.NoError(t, err)
	require.NotNil(t, it.ShardIterator)

	proxy.Inject(kinesisThrottled)
	got, err := c.GetRecords(ctx, &kinesis.GetRecordsInput{ShardIterator: *it.ShardIterator})
	require.NoError(t, err)
	require.Equal(t, 2, got.ResultMetadata.Attempts)
	require.Len(t, got.Records, 1)
	require.Equal(t, "aGVsbG8=", got.Records[0].Data)
	require.Equal(t, "user-1", got.Records[0].PartitionKey)
	require.Equal(t, put.SequenceNumber, got.Records[0].SequenceNumber)
	require.Equal(t, []time.Duration{500 * time.Millisecond, 500 * time.Millisecond}, clock.Sleeps())

	var throttles []string
	for _, a := range rec.all() {
		if a.Class != engine.ClassSuccess {
			require.Equal(t, engine.ClassThrottling, a.Class, a.Operation)
			require.Equal(t, "ProvisionedThroughputExceededException", a.Code)
			require.Equal(t, engine.OutcomeRetry, a.Outcome)
			require.Equal(t, engine.DefaultRetryQuotaCapacity-engine.RetryCostThrottling, a.QuotaBalance)
			throttles = append(throttles, a.Operation)
		}
	}
	require.Equal(t, []string{"PutRecord", "GetRecords"}, throttles)
	all := rec.all()
	require.Equal(t, engine.DefaultRetryQuotaCapacity, all[len(all)-1].QuotaBalance, "each successful retry refunded its 5 tokens")
}
