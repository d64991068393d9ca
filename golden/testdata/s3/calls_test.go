package s3

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/openapi"
)

// serve answers every request with status and body (text/xml) and records
// the request line, Content-Type and body.
func serve(t *testing.T, status int, body string) (*Client, *[]string) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.RequestURI, r.Header.Get("Content-Type"), r.Header.Get("Accept"), string(b))
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func ptr[T any](v T) *T { return &v }

const tagging = `<Tagging><TagSet><Tag><Key>env</Key><Value>prod</Value></Tag><Tag><Key>team</Key><Value>a&amp;b</Value></Tag></TagSet></Tagging>`

// PutBucketTagging writes the typed input as S3's XML, byte for byte, on
// PUT /{Bucket}?tagging; GetBucketTagging reads the same bytes back, and
// encoding them again gives the same bytes.
func TestTaggingRoundTrip(t *testing.T) {
	c, got := serve(t, 200, "")
	in := &PutBucketTaggingInput{Bucket: "b1", Tagging: PutBucketTaggingInputTagging{TagSet: []Tag{{Key: "env", Value: "prod"}, {Key: "team", Value: "a&b"}}}}
	if _, err := c.PutBucketTagging(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	want := []string{"PUT /b1?tagging", "text/xml", "", tagging}
	if strings.Join(*got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sent\n%s\nwant\n%s", strings.Join(*got, "\n"), strings.Join(want, "\n"))
	}

	c, got = serve(t, 200, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+strings.Replace(tagging, "<Tagging>", `<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`, 1))
	out, err := c.GetBucketTagging(context.Background(), &GetBucketTaggingInput{Bucket: "b1"})
	if err != nil {
		t.Fatal(err)
	}
	if (*got)[0] != "GET /b1?tagging" || (*got)[2] != "text/xml" {
		t.Fatalf("sent %q", *got)
	}
	if len(out.TagSet) != 2 || out.TagSet[1] != (Tag{Key: "team", Value: "a&b"}) {
		t.Fatalf("decoded %+v", out.TagSet)
	}
	again, err := openapi.XMLBody(out, "Tagging", "")
	if err != nil || string(again) != tagging {
		t.Fatalf("round trip %s %v", again, err)
	}
}

const complete = `<CompleteMultipartUpload><Part><ETag>e1</ETag><PartNumber>1</PartNumber></Part><Part><ETag>e2</ETag><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>`

const completed = `<CompleteMultipartUploadResult><Location>https://b1.s3.amazonaws.com/k</Location><Bucket>b1</Bucket><Key>k</Key><ETag>e3</ETag></CompleteMultipartUploadResult>`

// CompleteMultipartUpload: unwrapped <Part> elements in order, uploadId
// sent once; the result decodes and encodes back to the same bytes.
func TestCompleteMultipartUploadRoundTrip(t *testing.T) {
	c, got := serve(t, 200, completed)
	out, err := c.CompleteMultipartUpload(context.Background(), &CompleteMultipartUploadInput{Bucket: "b1", Key: "k", UploadId: "U123",
		CompleteMultipartUpload: &CompleteMultipartUploadInputCompleteMultipartUpload{Parts: []CompletedPart{
			{ETag: ptr("e1"), PartNumber: ptr(int64(1))}, {ETag: ptr("e2"), PartNumber: ptr(int64(2))}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"POST /b1/k?uploadId=U123", "text/xml", "text/xml", complete}
	if strings.Join(*got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sent\n%s\nwant\n%s", strings.Join(*got, "\n"), strings.Join(want, "\n"))
	}
	if *out.Location != "https://b1.s3.amazonaws.com/k" || *out.ETag != "e3" || *out.Bucket != "b1" || *out.Key != "k" {
		t.Fatalf("decoded %+v", out)
	}
	again, err := openapi.XMLBody(out, "CompleteMultipartUploadResult", "")
	if err != nil || string(again) != completed {
		t.Fatalf("round trip\n%s\nwant\n%s (%v)", again, completed, err)
	}
}

// listed is a ListObjectsV2 result in the spec's element order (S3 sends
// the same elements in its own order, which decodes the same).
const listed = `<ListBucketResult><IsTruncated>true</IsTruncated>` +
	`<Contents><Key>happyface.jpg</Key><LastModified>2014-11-21T19:40:05Z</LastModified><ETag>70ee</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass></Contents>` +
	`<Contents><Key>test.jpg</Key><LastModified>2014-05-02T04:51:50Z</LastModified><ETag>becf</ETag><Size>4192256</Size><StorageClass>STANDARD</StorageClass></Contents>` +
	`<Name>examplebucket</Name><Prefix></Prefix><MaxKeys>2</MaxKeys><CommonPrefixes><Prefix>photos/</Prefix></CommonPrefixes><KeyCount>2</KeyCount>` +
	`<NextContinuationToken>1w41l63U0xa8q7smH50vCxyTQqdxo69O3EmK28Bi5PcROI4wI/EyIJg==</NextContinuationToken></ListBucketResult>`

// ListObjectsV2: GET /{Bucket}?list-type=2 (the path key's fixed pair, sent
// once); unwrapped Contents and CommonPrefixes; times, integers, enums.
func TestListObjectsV2RoundTrip(t *testing.T) {
	c, got := serve(t, 200, listed)
	out, err := c.ListObjectsV2(context.Background(), &ListObjectsV2Input{Bucket: "examplebucket", MaxKeys: ptr(int64(2))})
	if err != nil {
		t.Fatal(err)
	}
	if (*got)[0] != "GET /examplebucket?list-type=2&max-keys=2" {
		t.Fatalf("sent %q", (*got)[0])
	}
	if len(out.Contents) != 2 || *out.Contents[1].Size != 4192256 || *out.Contents[0].StorageClass != ObjectStorageClassStandard ||
		!out.Contents[0].LastModified.Equal(time.Date(2014, 11, 21, 19, 40, 5, 0, time.UTC)) || *out.CommonPrefixes[0].Prefix != "photos/" ||
		!*out.IsTruncated || *out.KeyCount != 2 || *out.Name != "examplebucket" {
		t.Fatalf("decoded %+v", out)
	}
	if string(out.ResultMetadata.Body) != listed {
		t.Fatalf("ResultMetadata.Body = %s", out.ResultMetadata.Body)
	}
	again, err := openapi.XMLBody(out, "ListBucketResult", "")
	if err != nil || string(again) != listed {
		t.Fatalf("round trip\n%s\nwant\n%s (%v)", again, listed, err)
	}
}
