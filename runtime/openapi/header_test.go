package openapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type etag string

func TestResponseHeadersTyped(t *testing.T) {
	h := http.Header{}
	h.Set("ETag", `"abc"`)
	h.Add("Link", "<a>; rel=next")
	h.Add("Link", "<b>; rel=last")
	h.Set("X-Total-Count", " 42 ")
	h.Set("X-Small", "2147483648")
	h.Set("X-Ratio", "0.5")
	h.Set("X-Flag", "TRUE")
	h.Set("Last-Modified", "Tue, 01 Dec 2026 21:00:00 GMT")
	h.Set("X-When", "2026-12-01T21:00:00.5Z")
	h.Set("X-Bad", "forty")

	var tag *etag
	var link *string
	var total *int64
	var small *int32
	var ratio *float64
	var flag *bool
	var mod, when *time.Time
	for _, err := range []error{HeaderString(h, "ETag", &tag), HeaderString(h, "Link", &link), HeaderInt(h, "X-Total-Count", &total),
		HeaderFloat(h, "X-Ratio", &ratio), HeaderBool(h, "X-Flag", &flag), HeaderTime(h, "Last-Modified", &mod), HeaderTime(h, "X-When", &when)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if *tag != `"abc"` || *link != "<a>; rel=next, <b>; rel=last" || *total != 42 || *ratio != 0.5 || !*flag {
		t.Fatalf("got %q %q %d %v %v", *tag, *link, *total, *ratio, *flag)
	}
	if want := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC); !mod.Equal(want) {
		t.Fatalf("Last-Modified %v", mod)
	}
	if want := time.Date(2026, 12, 1, 21, 0, 0, 5e8, time.UTC); !when.Equal(want) {
		t.Fatalf("X-When %v", when)
	}
	var absent *int64
	if err := HeaderInt(h, "X-Absent", &absent); err != nil || absent != nil {
		t.Fatalf("absent header: %v %v", absent, err)
	}
	h.Set("X-Null", "null")
	h.Set("X-Empty", " ")
	var nullFlag *bool
	if err := HeaderBool(h, "X-Null", &nullFlag); err != nil || nullFlag != nil {
		t.Fatalf("null is no value: %v %v", nullFlag, err)
	}
	if err := HeaderInt(h, "X-Empty", &absent); err != nil || absent != nil {
		t.Fatalf("an empty value is no value: %v %v", absent, err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{HeaderInt(h, "X-Bad", &total), `response header X-Bad: "forty" is not an integer of 64 bits`},
		{HeaderInt(h, "X-Small", &small), `response header X-Small: "2147483648" is not an integer of 32 bits`},
		{HeaderFloat(h, "X-Bad", &ratio), `response header X-Bad: "forty" is not a number`},
		{HeaderBool(h, "X-Bad", &flag), `response header X-Bad: "forty" is not true or false`},
		{HeaderTime(h, "X-Bad", &mod), `response header X-Bad: "forty" is not an RFC 3339 date-time or an HTTP date`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("got %v, want %s", c.err, c.want)
		}
	}
	if small != nil {
		t.Fatal("a bad value leaves the field as it was")
	}
}

// Prefix headers (Smithy's @httpPrefixHeaders, S3's x-amz-meta-*): one
// header per map entry out, every header with the prefix in, keyed by the
// rest of its name in lower case.
func TestHeaderMapRoundTrip(t *testing.T) {
	h := http.Header{}
	SetHeaderMap(h, "x-amz-meta-", map[string]string{"color": "blue", "Two-Words": "a b", "": "dropped"})
	SetHeaderMap(h, "x-amz-meta-", nil)
	require.Equal(t, http.Header{"X-Amz-Meta-Color": {"blue"}, "X-Amz-Meta-Two-Words": {"a b"}}, h)

	in := http.Header{"X-Amz-Meta-Color": {"blue", "green"}, "X-Amz-Meta-Two-Words": {"a b"}, "X-Amz-Metadata": {"no"}, "Content-Type": {"x"}}
	require.Equal(t, map[string]string{"color": "blue, green", "two-words": "a b"}, HeaderMap(in, "x-amz-meta-"))
	require.Nil(t, HeaderMap(http.Header{"Content-Type": {"x"}}, "x-amz-meta-"))
}
