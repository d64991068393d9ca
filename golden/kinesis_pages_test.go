package golden_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/kinesis"
	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
)

// TestKinesisCursorPagesAndWaiter runs the Kinesis overlay's cursor-style
// paginators and StreamExists/StreamNotExists waiters against kinesalite in
// real time (streams leave CREATING and DELETING after 500 ms; waiter
// delays 50–200 ms by option): three streams listed one name per page
// (ExclusiveStartStreamName + HasMoreStreams), and a 4-shard stream's shards
// two per page (StreamDescription.Shards[-1].ShardId + HasMoreShards).
func TestKinesisCursorPagesAndWaiter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := kinesis.New(testserver.StartKinesalite(t), func(o *kinesis.Options) {
		o.BeforeAttempt = testserver.SignV4("kinesis", "us-east-1")
	})
	require.NoError(t, err)
	small := func(o *runtime.WaiterOptions) { o.MinDelay, o.MaxDelay = 50*time.Millisecond, 200*time.Millisecond }
	for i, shards := range []int64{4, 1, 1} {
		name := fmt.Sprintf("stream-%d", i)
		_, err := c.CreateStream(ctx, &kinesis.CreateStreamInput{StreamName: name, ShardCount: shards})
		require.NoError(t, err)
		out, err := c.WaitUntilStreamExists(ctx, &kinesis.DescribeStreamInput2{StreamName: name}, 30*time.Second, small)
		require.NoError(t, err)
		require.Equal(t, kinesis.StreamStatusActive, out.StreamDescription.StreamStatus)
	}

	one := int64(1)
	var names []string
	pages := 0
	for page, err := range c.ListStreamsPages(ctx, &kinesis.ListStreamsInput2{Limit: &one}) {
		require.NoError(t, err)
		pages++
		names = append(names, page.StreamNames...)
	}
	require.Equal(t, []string{"stream-0", "stream-1", "stream-2"}, names)
	require.Equal(t, 3, pages, "one name per page; HasMoreStreams is false on the third")

	two := int64(2)
	var shardIDs []string
	for shard, err := range c.DescribeStreamItems(ctx, &kinesis.DescribeStreamInput2{StreamName: "stream-0", Limit: &two}) {
		require.NoError(t, err)
		shardIDs = append(shardIDs, shard.ShardId)
	}
	require.Equal(t, []string{"shardId-000000000000", "shardId-000000000001", "shardId-000000000002", "shardId-000000000003"}, shardIDs)

	_, err = c.DeleteStream(ctx, &kinesis.DeleteStreamInput{StreamName: "stream-1"})
	require.NoError(t, err)
	gone, err := c.WaitUntilStreamNotExists(ctx, &kinesis.DescribeStreamInput2{StreamName: "stream-1"}, 30*time.Second, small)
	require.NoError(t, err)
	require.Nil(t, gone)
}
