package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInputChecksByFieldKind: which members a generated method checks
// before sending, by kind: string and string-enum path parameters must be
// non-empty, a list path parameter must have items, an integer one is
// never empty; required nil-able members must be set, required nullable
// ones may be nil (sent as null); required values are checked only when
// the whole input is nil.
func TestInputChecksByFieldKind(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a/{s}/{e}/{l}/{n}:
    post:
      operationId: Put
      parameters:
        - {name: s, in: path, required: true, schema: {type: string}}
        - {name: e, in: path, required: true, schema: {type: string, enum: [x, y]}}
        - {name: l, in: path, required: true, schema: {type: array, items: {type: string}}}
        - {name: n, in: path, required: true, schema: {type: integer}}
        - {name: tags, in: query, required: true, schema: {type: array, items: {type: string}}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [m, v, z]
              properties:
                m: {type: object, additionalProperties: {type: string}}
                v: {type: string}
                z: {type: string, nullable: true}
      responses: {'204': {description: ok}}
`)
	require.NoError(t, err)
	var got []string
	for _, c := range inputChecks(svc.Operations[0], typesByName(svc)) {
		cond := "in == nil"
		switch {
		case c.nilOK:
			cond = "in != nil && " + c.cond.GoString()
		case c.cond != nil:
			cond += " || " + c.cond.GoString()
		}
		got = append(got, c.field+": "+cond+" → "+c.reason)
	}
	require.Equal(t, []string{
		`S: in == nil || in.S == "" → EmptyPathParameter`,
		`S: in != nil && (in.S == "." || in.S == "..") → DotSegmentPathParameter`,
		`E: in == nil || in.E == "" → EmptyPathParameter`,
		`E: in != nil && (in.E == "." || in.E == "..") → DotSegmentPathParameter`,
		`L: in == nil || len(in.L) == 0 → EmptyPathParameter`,
		`Tags: in == nil || in.Tags == nil → MissingRequiredField`,
		`M: in == nil || in.M == nil → MissingRequiredField`,
		`V: in == nil → MissingRequiredField`,
	}, got)
}

// TestInputChecksOfUnions: a union path parameter is refused when it would
// render as an empty segment (no variant set, or the set one empty), as a
// string one is, and a required union body or member when no variant is
// set (it would be sent as null or nothing) — trial F1.
func TestInputChecksOfUnions(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a/{u}/b:
    post:
      operationId: Put
      parameters:
        - {name: u, in: path, required: true, schema: {anyOf: [{type: string}, {type: string, format: uuid}]}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - {type: object, required: [a], properties: {a: {type: string}}}
                - {type: object, required: [b], properties: {b: {type: integer}}}
      responses: {'204': {description: ok}}
`)
	require.NoError(t, err)
	var got []string
	for _, c := range inputChecks(svc.Operations[0], typesByName(svc)) {
		cond := "in == nil"
		if c.cond != nil {
			cond += " || " + c.cond.GoString()
		}
		got = append(got, c.field+": "+cond+" → "+c.reason)
	}
	require.Equal(t, []string{
		`U: in == nil || openapi.EmptyPathParam(&in.U) → EmptyPathParameter`,
		`Body: in == nil || openapi.UnionUnset(&in.Body) → MissingRequiredField`,
	}, got)
}
