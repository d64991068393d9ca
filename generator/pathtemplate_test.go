package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnfilledPathPlaceholderSkipsTheOperation: /d/{id} with no id
// parameter would be sent as /d/%7Bid%7D; it is a located warning and the
// operation is skipped (counted in Service.Skipped), the others stay.
func TestUnfilledPathPlaceholderSkipsTheOperation(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /d/{id}:
    get:
      operationId: GetD
      responses: {'200': {description: ok}}
  /e/{id}:
    get:
      operationId: GetE
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Contains(t, ds, `spec.yaml#/paths/~1d~1%7Bid%7D/get: path template placeholder {id} has no path parameter; operation GET /d/{id} skipped`)
	for _, d := range ds {
		require.NotContains(t, d, "spec validation", "reported once, located")
	}
	require.Len(t, svc.Operations, 1)
	require.Equal(t, "GetE", svc.Operations[0].Name)
	require.Equal(t, []string{"GET /d/{id}"}, svc.Skipped)
	require.NotContains(t, typeNames(svc), "GetDInput")
}

func typeNames(svc *Service) []string {
	var out []string
	for _, t := range svc.Types {
		out = append(out, t.Name)
	}
	return out
}

// TestPathPlaceholderFilledOnlyByAUsableParameter (new-user trial 3, F9):
// /h/{i} whose only parameter i is a content parameter (skipped: no schema)
// went out as GET /h/%7Bi%7D. A placeholder no usable path parameter fills
// skips the operation with a located warning saying why; an operation-level
// content parameter replacing a path-level one with a schema does not fill
// it either.
func TestPathPlaceholderFilledOnlyByAUsableParameter(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /h/{i}:
    get:
      operationId: x6
      parameters: [{name: i, in: path, required: true, content: {application/json: {schema: {type: object}}}}]
      responses: {'200': {description: ok}}
  /r/{i}:
    parameters: [{name: i, in: path, required: true, schema: {type: string}}]
    get:
      operationId: r1
      parameters: [{name: i, in: path, required: true, content: {application/json: {schema: {type: object}}}}]
      responses: {'200': {description: ok}}
    put:
      operationId: r2
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1h~1%7Bi%7D/get/parameters/0: path template placeholder {i} is filled by a content parameter, which is not supported (no schema); operation GET /h/{i} skipped`,
		`spec.yaml#/paths/~1r~1%7Bi%7D/get/parameters/0: path template placeholder {i} is filled by a content parameter, which is not supported (no schema); operation GET /r/{i} skipped`,
	}, ds)
	require.Equal(t, []string{"GET /h/{i}", "GET /r/{i}"}, svc.Skipped)
	require.Len(t, svc.Operations, 1)
	require.Equal(t, "R2", svc.Operations[0].Name)
}

// TestPathKeyTemplateMustBeBalanced (F9): "/a/{b" was sent as /a/%7Bb with
// no word from the generator. A "{" without its "}", a "}" without its
// "{", a nested "{" or an empty "{}" is a located error, like a path key
// not starting with "/".
func TestPathKeyTemplateMustBeBalanced(t *testing.T) {
	for key, want := range map[string]string{
		"/a/{b":     `error: spec.yaml#/paths/~1a~1%7Bb: path "/a/{b" has an unbalanced "{" or "}": it is not a path template (RFC 6570) and would be sent literally`,
		"/a/b}":     `error: spec.yaml#/paths/~1a~1b%7D: path "/a/b}" has an unbalanced "{" or "}": it is not a path template (RFC 6570) and would be sent literally`,
		"/a/{{b}}":  `error: spec.yaml#/paths/~1a~1%7B%7Bb%7D%7D: path "/a/{{b}}" has an unbalanced "{" or "}": it is not a path template (RFC 6570) and would be sent literally`,
		"/a/{}/c":   `error: spec.yaml#/paths/~1a~1%7B%7D~1c: path "/a/{}/c" has an empty "{}": it is not a path template (RFC 6570) and would be sent literally`,
		"/a/{b}/{c": `error: spec.yaml#/paths/~1a~1%7Bb%7D~1%7Bc: path "/a/{b}/{c" has an unbalanced "{" or "}": it is not a path template (RFC 6570) and would be sent literally`,
	} {
		_, diags, err := loadSpecText(t, "", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  '"+key+"':\n    get:\n      operationId: op\n      parameters: [{name: b, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n")
		require.Error(t, err, key)
		require.Contains(t, diags, want, key)
	}
}

// TestPathKeyEncodedDotSegmentIsAnError (F9): "/k/%2e%2e/x" was caught only
// at run time (every call refused). A percent-encoded "." or ".." segment
// is the same located generation error as a plain one.
func TestPathKeyEncodedDotSegmentIsAnError(t *testing.T) {
	for key, want := range map[string]string{
		"/k/%2e%2e/x": `error: spec.yaml#/paths/~1k~1%252e%252e~1x: path "/k/%2e%2e/x" has a "%2e%2e" segment (".."): it would name another resource`,
		"/k/%2E/x":    `error: spec.yaml#/paths/~1k~1%252E~1x: path "/k/%2E/x" has a "%2E" segment ("."): it would name another resource`,
		"/k/.%2e":     `error: spec.yaml#/paths/~1k~1.%252e: path "/k/.%2e" has a ".%2e" segment (".."): it would name another resource`,
	} {
		_, diags, err := loadSpecText(t, "", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  '"+key+"':\n    get:\n      operationId: op\n      responses: {'200': {description: ok}}\n")
		require.Error(t, err, key)
		require.Contains(t, diags, want, key)
	}
}

// TestPathParameterTheTemplateLacks (F9): /e with a required in: path
// parameter z made a required input field Z that was never sent (only
// kin-openapi's unlocated "spec validation" line mentioned it). It is a
// located warning and no field; the operation stays.
func TestPathParameterTheTemplateLacks(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /e:
    parameters: [{name: y, in: path, required: true, schema: {type: string}}]
    get:
      operationId: x4
      parameters:
        - {name: z, in: path, required: true, schema: {type: string}}
        - {name: q, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1e/parameters/0: path parameter "y" is not in the path template /e: it would never be sent; skipped`,
		`spec.yaml#/paths/~1e/get/parameters/0: path parameter "z" is not in the path template /e: it would never be sent; skipped`,
	}, ds)
	require.Len(t, svc.Operations, 1)
	in := typeNamed(svc, "X4Input")
	require.NotNil(t, in)
	var fields []string
	for _, f := range in.Fields {
		fields = append(fields, f.Name)
	}
	require.Equal(t, []string{"Q"}, fields)
}
