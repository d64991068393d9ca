package golden_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/sqs"
)

// TestSQSListQueuesPages pages SQS's ListQueues (query protocol, XML
// results) by NextToken on a loopback server that answers like SQS: 5
// queues, MaxResults per page, NextToken absent on the last page.
func TestSQSListQueuesPages(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var tokens []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		tokens = append(tokens, q.Get("NextToken"))
		mu.Unlock()
		max, _ := strconv.Atoi(q.Get("MaxResults"))
		start, _ := strconv.Atoi(q.Get("NextToken"))
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprint(w, `<ListQueuesResponse><ListQueuesResult>`)
		end := min(start+max, 5)
		for i := start; i < end; i++ {
			fmt.Fprintf(w, `<QueueUrl>https://sqs.us-east-1.amazonaws.com/123456789012/q%d</QueueUrl>`, i)
		}
		if end < 5 {
			fmt.Fprintf(w, `<NextToken>%d</NextToken>`, end)
		}
		fmt.Fprint(w, `</ListQueuesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListQueuesResponse>`)
	}))
	defer hs.Close()
	c, err := sqs.New(hs.URL)
	require.NoError(t, err)
	two := int64(2)
	var urls []string
	for u, err := range c.GETListQueuesItems(context.Background(), &sqs.GETListQueuesInput{MaxResults: &two}) {
		require.NoError(t, err)
		urls = append(urls, u)
	}
	require.Len(t, urls, 5)
	require.Equal(t, "https://sqs.us-east-1.amazonaws.com/123456789012/q4", urls[4])
	require.Equal(t, []string{"", "2", "4"}, tokens)

	// The raw XML body, envelope and undeclared elements included, stays
	// reachable in ResultMetadata.Body (issue 19 rule 7), byte for byte.
	out, err := c.GETListQueues(context.Background(), &sqs.GETListQueuesInput{MaxResults: &two, NextToken: ptr("4")})
	require.NoError(t, err)
	require.Equal(t, `<ListQueuesResponse><ListQueuesResult><QueueUrl>https://sqs.us-east-1.amazonaws.com/123456789012/q4</QueueUrl></ListQueuesResult>`+
		`<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListQueuesResponse>`, string(out.ResultMetadata.Body))
}
