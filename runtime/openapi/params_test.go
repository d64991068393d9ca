package openapi

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// paramColour is an enum-like named string type, as generated code declares.
type paramColour string

var (
	paramArr = []int{3, 4}
	paramObj = map[string]any{"b": 2, "a": "x y"}
)

func TestPathParam(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       any
		style   string
		explode bool
		want    string
	}{
		{"simple primitive is escaped with PathEscape", "a/b c", StyleSimple, false, "a%2Fb%20c"},
		{"simple array joins with commas", paramArr, StyleSimple, false, "3,4"},
		{"simple exploded array joins with commas", paramArr, StyleSimple, true, "3,4"},
		{"simple object is key,value pairs in key order", paramObj, StyleSimple, false, "a,x%20y,b,2"},
		{"simple exploded object is key=value pairs", paramObj, StyleSimple, true, "a=x%20y,b=2"},
		{"label primitive", "5", StyleLabel, false, ".5"},
		{"label array", paramArr, StyleLabel, false, ".3,4"},
		{"label exploded array", paramArr, StyleLabel, true, ".3.4"},
		{"label exploded object", paramObj, StyleLabel, true, ".a=x%20y.b=2"},
		{"matrix primitive", "5", StyleMatrix, false, ";id=5"},
		{"matrix array", paramArr, StyleMatrix, false, ";id=3,4"},
		{"matrix exploded array", paramArr, StyleMatrix, true, ";id=3;id=4"},
		{"matrix object", paramObj, StyleMatrix, false, ";id=a,x%20y,b,2"},
		{"matrix exploded object", paramObj, StyleMatrix, true, ";a=x%20y;b=2"},
		{"matrix absent is the bare name", (*string)(nil), StyleMatrix, false, ";id"},
		{"enum values are their wire value", paramColour("blue"), StyleSimple, false, "blue"},
		{"pointers are dereferenced", ptr(int64(7)), StyleSimple, false, "7"},
		{"booleans are true/false", true, StyleSimple, false, "true"},
		{"+ is %2B in every style (S3 reads + in a path as a space; trial F15)", "a+b c", StyleSimple, false, "a%2Bb%20c"},
		{"+ in label values", []string{"a+b", "c"}, StyleLabel, true, ".a%2Bb.c"},
		{"+ in matrix names and values", map[string]any{"k+": "v+"}, StyleMatrix, true, ";k%2B=v%2B"},
		{"+ in a matrix value", "v+", StyleMatrix, false, ";id=v%2B"},
		{"times are RFC 3339", time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), StyleSimple, false, "2024-01-02T03:04:05Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, PathParam("id", tc.v, tc.style, tc.explode))
		})
	}
}

func TestAppendQuery(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       any
		style   string
		explode bool
		want    string
	}{
		{"form primitive", "a b&c", StyleForm, true, "id=a+b%26c"},
		{"form exploded array repeats the name", paramArr, StyleForm, true, "id=3&id=4"},
		{"form array joins with commas", paramArr, StyleForm, false, "id=3,4"},
		{"form exploded object uses property names", paramObj, StyleForm, true, "a=x+y&b=2"},
		{"form object is name=k,v pairs", paramObj, StyleForm, false, "id=a,x+y,b,2"},
		{"form array: commas in values are escaped, separators not", []string{"a,b", "c"}, StyleForm, false, "id=a%2Cb,c"},
		{"spaceDelimited array", paramArr, StyleSpaceDelimited, false, "id=3%204"},
		{"spaceDelimited array: spaces in values are +", []string{"a b", "c"}, StyleSpaceDelimited, false, "id=a+b%20c"},
		{"spaceDelimited exploded array is form", paramArr, StyleSpaceDelimited, true, "id=3&id=4"},
		{"pipeDelimited array", paramArr, StylePipeDelimited, false, "id=3|4"},
		{"pipeDelimited array: pipes in values are escaped", []string{"p|q", "r"}, StylePipeDelimited, false, "id=p%7Cq|r"},
		{"pipeDelimited exploded array is form", paramArr, StylePipeDelimited, true, "id=3&id=4"},
		{"deepObject object", paramObj, StyleDeepObject, true, "id%5Ba%5D=x+y&id%5Bb%5D=2"},
		{"deepObject nested object", map[string]any{"a": map[string]any{"c": 1}}, StyleDeepObject, true, "id%5Ba%5D%5Bc%5D=1"},
		{"deepObject array is indexed", []string{"data.customer", "latest_charge"}, StyleDeepObject, true, "id%5B0%5D=data.customer&id%5B1%5D=latest_charge"},
		{"deepObject array in an object is indexed", map[string]any{"in": []int{3, 4}}, StyleDeepObject, true, "id%5Bin%5D%5B0%5D=3&id%5Bin%5D%5B1%5D=4"},
		{"nil pointer adds nothing", (*int)(nil), StyleForm, true, ""},
		{"nil slice adds nothing", []string(nil), StyleForm, true, ""},
		{"empty string is sent", "", StyleForm, true, "id="},
		// U+FDD0 is SeparatorMark: inside a value it is data, sent escaped,
		// and never turns the escaped separator after it into a literal one.
		{"a mark in a primitive stays data", "x\uFDD0,y", StyleForm, true, "id=x%EF%B7%90%2Cy"},
		{"a mark in an array element stays data", []string{"x\uFDD0,y", "z\uFDD0"}, StyleForm, false, "id=x%EF%B7%90%2Cy,z%EF%B7%90"},
		{"a mark in an exploded object's key stays data", map[string]string{"k\uFDD0|": "v\uFDD0 "}, StylePipeDelimited, true, "k%EF%B7%90%7C=v%EF%B7%90+"},
		{"a mark in a deepObject key stays data", map[string]string{"k\uFDD0,": "v"}, StyleDeepObject, true, "id%5Bk%EF%B7%90%2C%5D=v"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{}
			AppendQuery(q, "id", tc.v, tc.style, tc.explode)
			require.Equal(t, tc.want, EncodeQuery(q))
		})
	}
}

func TestSetHeaderAndAddCookie(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       any
		explode bool
		header  string
		cookie  string
	}{
		{"primitive", "v 1", false, "v 1", "id=v%201"},
		{"array", paramArr, false, "3,4", "id=3,4"},
		{"exploded array repeats the cookie", paramArr, true, "3,4", "id=3; id=4"},
		{"object", paramObj, false, "a,x y,b,2", "id=a,x%20y,b,2"},
		{"exploded object header is key=value", paramObj, true, "a=x y,b=2", "id=a,x%20y,b,2"},
		{"cookie: a space is %20, a plus %2B, a quote %22", `a b+"c`, false, `a b+"c`, "id=a%20b%2B%22c"},
		{"cookie values escape ; and ,", "a;b,c", false, "a;b,c", "id=a%3Bb%2Cc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			SetHeader(h, "X-Id", tc.v, tc.explode)
			require.Equal(t, tc.header, h.Get("X-Id"))
			c := http.Header{"Cookie": {"session=s1"}}
			AddCookie(c, "id", tc.v, tc.explode)
			require.Equal(t, "session=s1; "+tc.cookie, c.Get("Cookie"))
		})
	}
	h := http.Header{}
	SetHeader(h, "X-Id", (*string)(nil), false)
	AddCookie(h, "id", (*string)(nil), false)
	require.Empty(t, h, "absent values set nothing")
}

func TestIsSignerHeader(t *testing.T) {
	for name, want := range map[string]bool{
		"authorization": true, "X-Amz-Date": true, "x-amz-security-token": true, "X-Amz-Content-Sha256": true,
		"X-Amz-SignedHeaders": true, "x-amz-algorithm": true, "X-Amz-Credential": true, "X-Amz-Signature": true,
		"x-amz-acl": false, "X-Amz-Target": false, "x-amz-server-side-encryption": false, "Accept": false,
	} {
		if got := IsSignerHeader(name); got != want {
			t.Errorf("IsSignerHeader(%q) = %v, want %v", name, got, want)
		}
	}
}
