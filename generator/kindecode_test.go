package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// cloneTree copies a yaml tree node for node (no aliases).
func cloneTree(n *yaml.Node) *yaml.Node {
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, s := range n.Content {
			c.Content[i] = cloneTree(s)
		}
	}
	return &c
}

// kinResult is a decoding of a spec tree, before ResolveRefsIn (api) and
// after it (resolved, the same document then resolved in place).
type kinResult struct {
	api             *openapi3.T
	err, resolveErr error
	subs            int
}

// kinOld decodes doc as kin-openapi's decoder does (kinTree, Decode), on a
// copy.
func kinOld(doc *yaml.Node) kinResult {
	var r kinResult
	tree, err := kinTree(cloneTree(doc), true)
	if err != nil {
		r.err = err
		return r
	}
	api := &openapi3.T{}
	if r.err = tree.Decode(api); r.err != nil {
		return r
	}
	r.api = api
	return r
}

// kinNew decodes doc with decodeKinDoc, on a copy; false when it leaves doc
// to kin.
func kinNew(doc *yaml.Node) (kinResult, bool) {
	var r kinResult
	api, ok, subs := decodeKinDocCount(cloneTree(doc))
	r.api, r.subs = api, subs
	return r, ok
}

// kinDiff returns the first place a and b differ (reflect.DeepEqual's
// rules, unexported fields included), or "".
func kinDiff(a, b reflect.Value, path string, seen map[[2]uintptr]bool, depth int) string {
	if depth > 200 {
		return ""
	}
	if a.IsValid() != b.IsValid() {
		return path + ": valid differs"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[k] {
			return ""
		}
		seen[k] = true
		return kinDiff(a.Elem(), b.Elem(), path, seen, depth+1)
	case reflect.Interface:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		return kinDiff(a.Elem(), b.Elem(), path, seen, depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if s := kinDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, seen, depth+1); s != "" {
				return s
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil slice %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if s := kinDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen, depth+1); s != "" {
				return s
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil map %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d (%v vs %v)", path, a.Len(), b.Len(), a.MapKeys(), b.MapKeys())
		}
		keys := a.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Sprintf("%s: key %v missing", path, k)
			}
			if s := kinDiff(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k), seen, depth+1); s != "" {
				return s
			}
		}
		return ""
	case reflect.Func:
		if a.IsNil() != b.IsNil() {
			return path + ": func"
		}
		return ""
	}
	if a.CanInterface() && b.CanInterface() {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %#v vs %#v", path, a.Interface(), b.Interface())
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v vs %v", path, a, b)
	}
	return ""
}

// checkKinSame fails t unless decodeKinDoc either leaves doc to kin or
// gives what kin-openapi's decoder gives, before and after ResolveRefsIn.
// It reports whether decodeKinDoc handled doc.
func checkKinSame(t testing.TB, name string, doc *yaml.Node) bool {
	t.Helper()
	if hasAliases(doc) {
		return false
	}
	got, ok := kinNew(doc)
	if !ok {
		return false
	}
	if got.subs > 0 {
		t.Logf("%s: %d subtrees decoded by kin", name, got.subs)
	}
	want := kinOld(doc)
	if want.err != nil {
		t.Fatalf("%s: decodeKinDoc decoded what kin refuses (%v)", name, want.err)
	}
	if !reflect.DeepEqual(got.api, want.api) {
		t.Fatalf("%s: decoded document differs: %s", name,
			kinDiff(reflect.ValueOf(got.api), reflect.ValueOf(want.api), "T", map[[2]uintptr]bool{}, 0))
	}
	gotErr := openapi3.NewLoader().ResolveRefsIn(got.api, nil)
	wantErr := openapi3.NewLoader().ResolveRefsIn(want.api, nil)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: ResolveRefsIn: %v, want %v", name, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got.api, want.api) {
		t.Fatalf("%s: resolved document differs: %s", name,
			kinDiff(reflect.ValueOf(got.api), reflect.ValueOf(want.api), "T", map[[2]uintptr]bool{}, 0))
	}
	return true
}

// kinOracleSpecs lists the specs the oracle test loads, with the overlays
// they are generated with.
func kinOracleSpecs(t *testing.T) [][]string {
	var specs [][]string
	add := func(pattern string) {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			specs = append(specs, []string{f})
		}
	}
	add("../../shared/specs/*.yaml")
	add("../../shared/specs/*.json")
	add("../specs/*.openapi.yaml")
	add("../specs/mistral_openapi.yaml")
	home, _ := os.UserHomeDir()
	cache := filepath.Join(home, ".cache", "retrygen")
	if c := os.Getenv("RETRYGEN_CACHE"); c != "" {
		cache = c
	}
	if !raceEnabled {
		// Stripe and GitHub (tens of MB of tree, each loaded, decoded both
		// ways and resolved) take minutes under the race detector.
		for _, f := range []string{"stripe-mock-v0.203.0/spec3.json", "octokit-openapi-23.0.2/api.github.com.json"} {
			if _, err := os.Stat(filepath.Join(cache, f)); err == nil {
				specs = append(specs, []string{filepath.Join(cache, f)})
			}
		}
		specs = append(specs, []string{filepath.Join(cache, "stripe-mock-v0.203.0/spec3.json"), "../specs/stripe.overlay.yaml"})
	}
	specs = append(specs,
		[]string{"../../shared/specs/aws-s3-2006-03-01.openapi.yaml", "../specs/s3.overlay.yaml"},
		[]string{"../specs/aws-sqs-2012-11-05.openapi.yaml", "../specs/sqs.overlay.yaml"},
		[]string{"../specs/aws-dynamodb-2012-08-10.openapi.yaml", "../specs/dynamodb.overlay.yaml"},
		[]string{"../specs/aws-kinesis-2013-12-02.openapi.yaml", "../specs/kinesis.overlay.yaml"},
	)
	for _, root := range []string{"testdata", "../golden"} {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json") {
				if !strings.Contains(p, "overlay") {
					specs = append(specs, []string{p})
				}
			}
			return nil
		})
	}
	return specs
}

// TestKinDecodeMatchesKin is the oracle: on every spec the project knows,
// the document decodeKinDoc makes is kin-openapi's, before and after
// ResolveRefsIn; and on the real specs decodeKinDoc handles the spec.
func TestKinDecodeMatchesKin(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every spec")
	}
	handled, seen := 0, 0
	for _, spec := range kinOracleSpecs(t) {
		if _, err := os.Stat(spec[0]); err != nil {
			continue
		}
		var saw, did bool
		kinDecodeCheck = func(doc *yaml.Node) {
			saw = true
			did = checkKinSame(t, strings.Join(spec, "+"), doc)
		}
		_, _, _ = LoadService(spec[0], spec[1:])
		kinDecodeCheck = nil
		if !saw {
			continue
		}
		seen++
		if did {
			handled++
		}
		real := strings.Contains(spec[0], "shared/specs") || strings.Contains(spec[0], "../specs/") || strings.Contains(spec[0], "retrygen/")
		if real && !did {
			t.Errorf("%s: decodeKinDoc left the spec to kin", spec)
		}
	}
	t.Logf("decodeKinDoc handled %d of %d specs", handled, seen)
	if seen < 20 {
		t.Fatalf("only %d specs reached loadOpenAPI", seen)
	}
}

// kinCapture returns the tree loadOpenAPI is given when spec is loaded.
func kinCapture(tb testing.TB, spec ...string) *yaml.Node {
	var doc *yaml.Node
	kinDecodeCheck = func(d *yaml.Node) { doc = cloneTree(d) }
	defer func() { kinDecodeCheck = nil }()
	if _, _, err := LoadService(spec[0], spec[1:]); err != nil {
		tb.Fatal(err)
	}
	return doc
}

// BenchmarkLoadOpenAPI measures loadOpenAPI on S3 and SQS (with their
// overlays, as generated), with kin-openapi's decoder alone ("kin") and
// with decodeKinDoc ("direct").
func BenchmarkLoadOpenAPI(b *testing.B) {
	for _, spec := range [][]string{
		{"../../shared/specs/aws-s3-2006-03-01.openapi.yaml", "../specs/s3.overlay.yaml"},
		{"../specs/aws-sqs-2012-11-05.openapi.yaml", "../specs/sqs.overlay.yaml"},
	} {
		doc := kinCapture(b, spec...)
		name := strings.Split(filepath.Base(spec[0]), "-")[1]
		for _, off := range []bool{true, false} {
			mode := "direct"
			if off {
				mode = "kin"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				kinDecodeOff = off
				defer func() { kinDecodeOff = false }()
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					d := cloneTree(doc)
					b.StartTimer()
					if _, err := loadOpenAPI(d); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestKinSubtrees lists what decodeKinDoc leaves to kin-openapi on a spec
// (KINSPEC), for looking at.
func TestKinSubtrees(t *testing.T) {
	spec := os.Getenv("KINSPEC")
	if spec == "" {
		t.Skip("KINSPEC not set")
	}
	doc := kinCapture(t, strings.Split(spec, "+")...)
	counts := map[string]int{}
	kinSubTrace = func(key string, n *yaml.Node) {
		desc := fmt.Sprintf("%s: kind %d", key, n.Kind)
		if n.Kind == yaml.MappingNode {
			var keys []string
			for i := 0; i < len(n.Content); i += 2 {
				keys = append(keys, n.Content[i].Value)
			}
			desc = key + ": " + strings.Join(keys, ",")
		}
		counts[desc]++
	}
	defer func() { kinSubTrace = nil }()
	decodeKinDoc(doc)
	for k, v := range counts {
		t.Logf("%5d %s", v, k)
	}
}

// kinCaseSpec builds a spec whose schema S, operation GET /p and root
// carry the given flow-style pieces.
func kinCaseSpec(schema, op, root string) []byte {
	if schema == "" {
		schema = "{type: string}"
	}
	ops := `{responses: {"200": {description: ok}}}`
	if op != "" {
		ops = `{responses: {"200": {description: ok}}, ` + op + `}`
	}
	return []byte("openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /p:\n    get: " + ops +
		"\ncomponents:\n  schemas:\n    S: " + schema + "\n" + root)
}

// TestKinDecodeCases holds decodeKinDoc to kin-openapi's decoder on the
// fields where YAML's notations and kin-openapi's rules meet: each case
// either goes to kin (whole or subtree) or gives its document exactly;
// own marks the cases decodeKinDoc must read itself, with no subtree left
// to kin.
func TestKinDecodeCases(t *testing.T) {
	cases := []struct {
		schema, op, root string
		own              bool
	}{
		{schema: `{type: [string, "null"]}`, own: true},
		{schema: `{type: ~}`},
		{schema: `{type: 5}`},
		{schema: `{type: [a, null]}`},
		{schema: `{exclusiveMinimum: true, minimum: 1}`, own: true},
		{schema: `{exclusiveMinimum: 5, exclusiveMaximum: 5.5}`, own: true},
		{schema: `{exclusiveMinimum: "5"}`},
		{schema: `{exclusiveMaximum: yes}`},
		{schema: `{exclusiveMaximum: True}`},
		{schema: `{exclusiveMaximum: ~}`},
		{schema: `{exclusiveMaximum: {a: 1}}`},
		{schema: `{nullable: true, readOnly: false, writeOnly: true, deprecated: true, uniqueItems: true}`, own: true},
		{schema: `{nullable: "true"}`},
		{schema: `{nullable: on}`},
		{schema: `{minimum: 0x10}`},
		{schema: `{minimum: 1_000}`},
		{schema: `{minimum: 010}`},
		{schema: `{minimum: 1e3, maximum: -2.5E-3, multipleOf: 0.5}`, own: true},
		{schema: `{minimum: .5}`},
		{schema: `{minimum: -0}`},
		{schema: `{minimum: -0.0, maximum: -0.5}`},
		{schema: `{minimum: +5}`},
		{schema: `{minimum: 12345678901234567890}`},
		{schema: `{minimum: .inf}`},
		{schema: `{minimum: "5"}`},
		{schema: `{maxLength: 5, minLength: 0, maxItems: 18446744073709551615}`, own: true},
		{schema: `{maxLength: 5.0}`},
		{schema: `{maxLength: -1}`},
		{schema: `{maxLength: 18446744073709551616}`},
		{schema: `{enum: [1, "1", null, true, 1.5, {a: 1}, [1], -7]}`, own: true},
		{schema: `{enum: a}`},
		{schema: `{enum: [.nan]}`},
		{schema: `{enum: [0o17, 0b1]}`},
		{schema: `{default: 2020-01-01, example: 2020-06-11T16:32:50-03:00}`, own: true},
		{schema: `{example: !custom 5, default: !!str 7}`, own: true},
		{schema: `{example: !!binary aGk=}`},
		{schema: `{example: !!int "12"}`, own: true},
		{schema: `{example: !!float "12"}`},
		{schema: `{const: null, default: null, example: ~}`, own: true},
		{schema: `{examples: [1, a], const: {b: [1, 2]}}`, own: true},
		{schema: `{title: 1}`},
		{schema: `{title: 2020-01-01}`, own: true},
		{schema: `{description: null}`},
		{schema: `{description: ""}`, own: true},
		{schema: `{required: [a, null]}`},
		{schema: `{required: a}`},
		{schema: `{required: []}`, own: true},
		{schema: `{properties: {a: null}}`},
		{schema: `{properties: {a: true, b: false}}`, own: true},
		{schema: `{properties: {}}`, own: true},
		{schema: `{properties: {a: yes}}`},
		{schema: `{additionalProperties: false}`, own: true},
		{schema: `{additionalProperties: {}}`, own: true},
		{schema: `{additionalProperties: ~}`},
		{schema: `{additionalProperties: "yes"}`},
		{schema: `{additionalProperties: [1]}`},
		{schema: `{x-ext: 1, x-other: {a: [1, null]}, unknown: {b: [1, 2]}, 5: five}`, own: true},
		{schema: `{$ref: "#/components/schemas/T"}`, root: "    T: {type: integer}\n", own: true},
		{schema: `{$ref: "#/components/schemas/T", description: d}`, root: "    T: {type: integer}\n"},
		{schema: `{$ref: 5}`},
		{schema: `{$ref: ""}`},
		{schema: `{$ref: "#/components/schemas/Missing"}`},
		{schema: `{discriminator: {propertyName: t, mapping: {a: "#/components/schemas/S"}}}`},
		{schema: `{items: ~}`},
		{schema: `{type: array, items: {type: string}}`, own: true},
		{schema: `{unevaluatedProperties: false, dependentRequired: {a: [b]}, prefixItems: [{}]}`},
		{schema: `{xml: {name: x, attribute: true, wrapped: false, namespace: n, prefix: p, x-a: 1}}`, own: true},
		{schema: `{xml: ~}`},
		{schema: `{not: {type: string}, oneOf: [{type: string}], anyOf: [{}], allOf: [{type: object}]}`, own: true},
		{schema: `{allOf: [~]}`},
		{schema: `{externalDocs: {url: u, description: d, x-e: 1}}`, own: true},
		{schema: `true`, own: true},
		{schema: `yes`},
		{schema: `[1]`},
		{schema: `{type: string, type: integer}`},
		{op: `responses: ~`},
		{op: `parameters: [~]`},
		{op: `parameters: [{name: a, in: query, schema: {type: string}, explode: false, style: form, allowReserved: true, example: 1}]`, own: true},
		{op: `parameters: [{$ref: "#/components/parameters/P", description: d, summary: s}]`, root: "  parameters:\n    P: {name: p, in: query}\n", own: true},
		{op: `parameters: [{$ref: "#/components/parameters/P", x-a: 1}]`, root: "  parameters:\n    P: {name: p, in: query}\n"},
		{op: `requestBody: {$ref: "#/components/requestBodies/B", description: d}`, root: "  requestBodies:\n    B: {content: {a/b: {}}}\n", own: true},
		{op: `requestBody: {required: true, content: {application/json: {schema: {type: object}, example: {a: 1}, examples: {e: {value: 1, summary: s}}, encoding: {a: {style: form, explode: true}}}}}`, own: true},
		{op: `requestBody: ~`},
		{op: `security: [{}], servers: [{url: "https://x", description: d}]`, own: true},
		{op: `security: []`, own: true},
		{op: `security: [{a: [x, null]}]`},
		{op: `security: [{a: x}]`},
		{op: `security: [~]`},
		{op: `tags: [a, b], deprecated: true, operationId: o, summary: s, description: d`, own: true},
		{op: `tags: [a, null]`},
		{op: `deprecated: yes`},
		{op: `servers: [{url: x, variables: {v: {default: a, enum: [a]}}}]`},
		{op: `callbacks: {c: {"{$request.body#/u}": {post: {responses: {"200": {description: ok}}}}}}`},
		{op: `externalDocs: ~`},
		{op: `x-op: {a: 1}, other: 2`, own: true},
		{root: "x-root: [1, 2.5]\n", own: true},
		{root: "security: [{a: []}]\ntags: [{name: t}]\n"},
		{root: "servers: [{url: x}]\nexternalDocs: {url: u}\n", own: true},
		{root: "webhooks: {w: {post: {responses: {\"200\": {description: ok}}}}}\n"},
		{root: "jsonSchemaDialect: d\n", own: true},
		{root: "~: 1\n"},
	}
	for i, c := range cases {
		raw := kinCaseSpec(c.schema, c.op, c.root)
		var doc yaml.Node
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, raw)
		}
		name := fmt.Sprintf("case %d (%s%s%s)", i, c.schema, c.op, c.root)
		handled := checkKinSame(t, name, &doc)
		_, _, subs := decodeKinDocCount(cloneTree(&doc))
		if c.own && (!handled || subs > 0) {
			t.Errorf("%s: handled %v, %d subtrees to kin; want read by decodeKinDoc alone", name, handled, subs)
		}
		t.Logf("%s: handled %v, %d subtrees", name, handled, subs)
	}
}

// FuzzKinDecode holds decodeKinDoc to its oracle on any YAML: it leaves
// the document to kin-openapi, or gives what kin-openapi's decoder gives.
func FuzzKinDecode(f *testing.F) {
	f.Add(kinCaseSpec("", "", ""))
	f.Add(kinCaseSpec(`{type: [string, "null"], enum: [1, a, null], exclusiveMinimum: 1, properties: {a: {$ref: "#/components/schemas/S"}}}`, `parameters: [{name: a, in: query}], security: [{a: []}]`, "x-a: 1\n"))
	f.Add(kinCaseSpec(`{allOf: [{$ref: "#/components/schemas/S", description: d}], xml: {name: x}, maxLength: 3}`, `requestBody: {content: {a/b: {examples: {e: {value: 1}}}}}`, "servers: [{url: x}]\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<14 {
			return
		}
		var doc yaml.Node
		if yaml.Unmarshal(raw, &doc) != nil || doc.Kind != yaml.DocumentNode {
			return
		}
		checkKinSame(t, "fuzz", &doc)
	})
}
