package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSharedOutputHeaderIsOneField (new-user trial 3, F3): Twilio's
// CreateStream and UpdateStream return one type and declare the same
// response header the same way; it became AccessControlAllowOrigin for one
// operation and AccessControlAllowOrigin2 for the other, so a caller of
// UpdateStream reading the obvious field got nil. One field per (header
// name, type) on a shared output type; a suffix only when two declarations
// differ in type.
func TestSharedOutputHeaderIsOneField(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    post:
      operationId: CreateS
      responses:
        '201':
          description: ok
          headers:
            Access-Control-Allow-Origin: {schema: {type: string}}
            X-Count: {schema: {type: integer}}
          content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}
  /b:
    post:
      operationId: UpdateS
      responses:
        '200':
          description: ok
          headers:
            access-control-allow-origin: {schema: {type: string}}
            X-Count: {schema: {type: string}}
          content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}
components:
  schemas:
    S: {type: object, properties: {sid: {type: string}}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1b/post/responses/200/headers/X-Count: Go field name XCount is taken in S by a response header of another type; the response header "X-Count" is field XCount2`,
	}, ds)
	var fields []string
	for _, f := range typeNamed(svc, "S").Fields {
		fields = append(fields, f.Name)
	}
	require.Equal(t, []string{"Sid", "AccessControlAllowOrigin", "XCount", "XCount2"}, fields)
	for _, o := range svc.Operations {
		var got []string
		for _, h := range o.ResponseHeaders {
			got = append(got, h.Field)
		}
		want := map[string][]string{"CreateS": {"AccessControlAllowOrigin", "XCount"}, "UpdateS": {"XCount2", "AccessControlAllowOrigin"}}[o.Name]
		require.Equal(t, want, got, o.Name)
	}
}

// TestSharedOutputHeaderInlineEnumIsOneField: two operations returning one
// type declare the same header with the same inline enum. The enum became
// a Go type per operation (SXMode, SXMode2), the types differed, so the
// header was two fields (last stop's leftover after F3). Declarations
// equal but for their docs make one field of one enum type.
func TestSharedOutputHeaderInlineEnumIsOneField(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    post:
      operationId: CreateS
      responses:
        '201':
          description: ok
          headers:
            X-Mode: {schema: {type: string, enum: [fast, slow], description: the mode}}
          content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}
  /b:
    post:
      operationId: UpdateS
      responses:
        '200':
          description: ok
          headers:
            x-mode: {schema: {type: string, enum: [fast, slow]}}
          content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}
  /c:
    post:
      operationId: DeleteS
      responses:
        '200':
          description: ok
          headers:
            X-Mode: {schema: {type: string, enum: [fast, slow, off]}}
          content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}
components:
  schemas:
    S: {type: object, properties: {sid: {type: string}}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1c/post/responses/200/headers/X-Mode/schema: Go name SXMode is taken; using SXMode2`,
		`spec.yaml#/paths/~1c/post/responses/200/headers/X-Mode: Go field name XMode is taken in S by a response header of another type; the response header "X-Mode" is field XMode2`,
	}, ds)
	var fields []string
	for _, f := range typeNamed(svc, "S").Fields {
		fields = append(fields, f.Name+" "+f.Type.Name)
	}
	require.Equal(t, []string{"Sid ", "XMode SXMode", "XMode2 SXMode2"}, fields)
	for _, o := range svc.Operations {
		want := map[string]string{"CreateS": "XMode", "UpdateS": "XMode", "DeleteS": "XMode2"}[o.Name]
		require.Len(t, o.ResponseHeaders, 1, o.Name)
		require.Equal(t, want, o.ResponseHeaders[0].Field, o.Name)
	}
}
