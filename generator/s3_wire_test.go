package generator

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// s3Counts are issue 20's three measures of the S3 spec: PutObject's header
// parameters that have no input field, the operations that send a query
// parameter twice, and the XML bodies (request and 2xx response) left as
// raw bytes.
type s3Counts struct {
	putObjectDropped, signerOwned, sentTwice, xmlRaw int
	twice                                            []string
}

func measureS3(t *testing.T) s3Counts {
	spec := filepath.Join("..", "..", "shared", "specs", "aws-s3-2006-03-01.openapi.yaml")
	if _, err := os.Stat(spec); err != nil {
		t.Skipf("the S3 spec is not next to the checkout: %v", err)
	}
	svc, _, err := LoadService(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := openapi3.NewLoader().LoadFromFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	var c s3Counts
	for _, op := range svc.Operations {
		names := slices.Clone(op.Flags)
		for _, q := range op.Query {
			names = append(names, q.Name)
		}
		for _, p := range op.Params {
			if p.In == "query" {
				names = append(names, p.Name)
			}
		}
		slices.Sort(names)
		if len(slices.Compact(slices.Clone(names))) != len(names) {
			c.sentTwice++
			c.twice = append(c.twice, op.Name)
		}
		if op.Body.Kind == BodyRaw && strings.Contains(op.Body.ContentType, "xml") {
			c.xmlRaw++
		}
		if op.OutputBody == OutputRawField && xmlResponse(api, op.Source) {
			c.xmlRaw++
		}
		if op.Name == "PutObject" {
			declared := 0
			item := api.Paths.Find("/{Bucket}/{Key}")
			for _, p := range append(item.Parameters, item.Put.Parameters...) {
				switch {
				case p.Value.In != "header":
				case openapi.IsSignerHeader(p.Value.Name):
					c.signerOwned++
				default:
					declared++
				}
			}
			have := 0
			for _, p := range op.Params {
				if p.In == "header" {
					have++
				}
			}
			if op.ContentTypeField != "" {
				have++
			}
			c.putObjectDropped = declared - have
		}
	}
	return c
}

// xmlResponse reports whether the operation at ptr has an XML 2xx response.
func xmlResponse(api *openapi3.T, ptr string) bool {
	for path, item := range api.Paths.Map() {
		for method, op := range item.Operations() {
			if pointer("paths", path, strings.ToLower(method)) != ptr || op.Responses == nil {
				continue
			}
			for code, r := range op.Responses.Map() {
				if !is2xx(code) || r.Value == nil {
					continue
				}
				for mt := range r.Value.Content {
					if strings.Contains(mt, "xml") {
						return true
					}
				}
			}
		}
	}
	return false
}

// TestS3WireCounts is issue 20's "What must be shown" 3. Before issue 20:
// 22 of PutObject's 29 header parameters had no field (its 20 x-amz-*
// ones, Content-Type, and the signer's X-Amz-Security-Token), 84 of 96
// operations sent a query parameter twice, and 95 XML bodies (36 requests,
// 59 responses) were raw bytes.
func TestS3WireCounts(t *testing.T) {
	c := measureS3(t)
	if c.putObjectDropped != 0 || c.signerOwned != 1 || c.sentTwice != 0 || c.xmlRaw != 0 {
		t.Errorf("S3 counts %+v, want 0 dropped (1 signer-owned), 0 sent twice, 0 XML raw", c)
	}
	t.Logf("S3: PutObject header parameters dropped %d (%d more owned by the signer); operations sending a parameter twice %d (%v); XML bodies left raw %d",
		c.putObjectDropped, c.signerOwned, c.sentTwice, c.twice, c.xmlRaw)
}
