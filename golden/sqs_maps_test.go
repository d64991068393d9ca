package golden_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/sqs"
)

// TestSQSReceiveMessageMaps decodes ReceiveMessage's flattened maps, the
// SQS API reference's sample: <Attribute><Name>SenderId</Name><Value>…
// and <MessageAttribute><Name>color</Name><Value><StringValue>… (new-user
// trial 3, F7: both maps were tagged xml:"-" and came back empty).
func TestSQSReceiveMessageMaps(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml")
		_, _ = io.WriteString(w, `<ReceiveMessageResponse><ReceiveMessageResult><Message><MessageId>5fea7756</MessageId><ReceiptHandle>MbZj6w</ReceiptHandle><Body>This is a test message</Body>`+
			`<Attribute><Name>SenderId</Name><Value>195004372649</Value></Attribute><Attribute><Name>ApproximateReceiveCount</Name><Value>5</Value></Attribute>`+
			`<MessageAttribute><Name>color</Name><Value><StringValue>blue</StringValue><DataType>String</DataType></Value></MessageAttribute>`+
			`</Message></ReceiveMessageResult><ResponseMetadata><RequestId>b6633655</RequestId></ResponseMetadata></ReceiveMessageResponse>`)
	}))
	defer hs.Close()
	c, err := sqs.New(hs.URL)
	require.NoError(t, err)
	out, err := c.GETReceiveMessage(context.Background(), &sqs.GETReceiveMessageInput{AccountNumber: 123456789012, QueueName: "q"})
	require.NoError(t, err)
	require.Len(t, out.Messages, 1)
	m := out.Messages[0]
	require.Equal(t, map[string]string{"SenderId": "195004372649", "ApproximateReceiveCount": "5"}, map[string]string(m.Attributes))
	require.Len(t, m.MessageAttributes, 1)
	require.Equal(t, "blue", *m.MessageAttributes["color"].StringValue)
	require.Equal(t, "String", m.MessageAttributes["color"].DataType)
}

// TestSQSSendMessageForm: a POST operation of the query protocol sends its
// input as aws-sdk-go-v2 does, application/x-www-form-urlencoded
// Action=SendMessage&Version=2012-11-05 with the message attribute map as
// MessageAttribute.1.Name/.Value.* (new-user trial 3, F7: an XML body
// without the attributes was sent).
func TestSQSSendMessageForm(t *testing.T) {
	t.Parallel()
	var got []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.RequestURI, r.Header.Get("Content-Type"), string(b))
		w.Header().Set("Content-Type", "text/xml")
		_, _ = io.WriteString(w, `<SendMessageResponse><SendMessageResult><MessageId>m1</MessageId></SendMessageResult></SendMessageResponse>`)
	}))
	defer hs.Close()
	c, err := sqs.New(hs.URL)
	require.NoError(t, err)
	blue := "blue"
	out, err := c.POSTSendMessage(context.Background(), &sqs.SendMessageRequest{QueueUrl: "https://sqs.us-east-1.amazonaws.com/1/q", MessageBody: "hi & bye",
		MessageAttributes: map[string]sqs.MessageAttributeValue{"color": {StringValue: &blue, DataType: "String"}}})
	require.NoError(t, err)
	require.Equal(t, "m1", *out.MessageId)
	require.Equal(t, []string{"POST /?Action=SendMessage&Version=2012-11-05", "application/x-www-form-urlencoded",
		"Action=SendMessage&MessageAttribute.1.Name=color&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=blue" +
			"&MessageBody=hi+%26+bye&QueueUrl=https%3A%2F%2Fsqs.us-east-1.amazonaws.com%2F1%2Fq&Version=2012-11-05"}, got)
}
