package openapi

import (
	"strings"
	"testing"
	"time"
)

type awsqAttr struct {
	StringValue      *string  `xml:"StringValue,omitempty"`
	StringListValues []string `xml:"StringListValue"`
	BinaryValue      []byte   `xml:"BinaryValue,omitempty"`
	DataType         string   `xml:"DataType"`
}

type awsqInput struct {
	QueueUrl string               `json:"-" xml:"-"`
	Body     string               `xml:"MessageBody"`
	Delay    *int64               `xml:"DelaySeconds,omitempty"`
	Fifo     *bool                `xml:"Fifo,omitempty"`
	Names    []string             `xml:"AttributeName"`
	Empty    []string             `xml:"Empty"`
	Wrapped  []string             `xml:"Labels>Label"`
	Attrs    XMLFlatMap[awsqAttr] `xml:"MessageAttribute,omitempty"`
	Tags     XMLMap[string]       `xml:"Tags,omitempty"`
	When     *time.Time           `xml:"When,omitempty"`
	Unset    *string              `xml:"Unset,omitempty"`
}

// AWSQueryBody writes SQS's SendMessage as aws-sdk-go-v2's query encoder
// does: Action and Version, lists as Name.N, flattened maps as
// Name.N.Name/.Value with nested members, sorted by name, percent-encoded
// (new-user trial 3, F7: the POST operations sent an XML body).
func TestAWSQueryBody(t *testing.T) {
	blue, d, yes := "blue", int64(5), true
	when := time.Date(2030, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	in := &awsqInput{QueueUrl: "ignored", Body: "a b&c", Delay: &d, Fifo: &yes, Names: []string{"All", "SenderId"}, Empty: []string{},
		Wrapped: []string{"x"}, When: &when,
		Attrs: XMLFlatMap[awsqAttr]{"color": {StringValue: &blue, DataType: "String"}, "bin": {BinaryValue: []byte{1, 2}, DataType: "Binary"}},
		Tags:  XMLMap[string]{"k": "v"}}
	got, err := AWSQueryBody(in, "SendMessage", "2012-11-05")
	if err != nil {
		t.Fatal(err)
	}
	const want = "Action=SendMessage&AttributeName.1=All&AttributeName.2=SenderId&DelaySeconds=5&Empty=&Fifo=true&Labels.member.1=x" +
		"&MessageAttribute.1.Name=bin&MessageAttribute.1.Value.BinaryValue=AQI%3D&MessageAttribute.1.Value.DataType=Binary" +
		"&MessageAttribute.2.Name=color&MessageAttribute.2.Value.DataType=String&MessageAttribute.2.Value.StringValue=blue" +
		"&MessageBody=a+b%26c&Tags.entry.1.key=k&Tags.entry.1.value=v&Version=2012-11-05&When=2030-01-02T02%3A04%3A05Z"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := AWSQueryBody(&struct {
		C chan int `xml:"C"`
	}{C: make(chan int)}, "A", "1"); err == nil || err.Error() != "openapi: AWS query member C: cannot encode a chan int" {
		t.Fatal(err)
	}
}

// awsqNode is a recursive input shape.
type awsqNode struct {
	Next *awsqNode `xml:"Next,omitempty"`
}

// TestAWSQueryBodyRefusesACycle: an input that refers to itself is
// refused with an error naming the member past maxWalkDepth levels, as
// json.Marshal refuses a cycle, instead of recursing until the stack
// overflows (a fatal error no recover catches; review).
func TestAWSQueryBodyRefusesACycle(t *testing.T) {
	n := &awsqNode{}
	n.Next = n
	_, err := AWSQueryBody(n, "A", "1")
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels") {
		t.Fatalf("err = %v", err)
	}
}
