package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// opsSpec is a small non-AWS spec exercising parameters, bodies, responses,
// auth and servers.
const opsSpec = `openapi: 3.0.3
info: {title: Box Platform API, version: '1'}
servers:
  - url: https://{region}.api.test/v1
    variables: {region: {default: eu}}
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
    oauth: {type: oauth2, flows: {}}
    key: {type: apiKey, in: query, name: api_key}
  schemas:
    Problem:
      type: object
      properties: {code: {type: string}, detail: {type: string}}
    File:
      type: object
      properties: {id: {type: string}}
paths:
  /accounts/{AccountSid}/calls.json:
    parameters:
      - {name: AccountSid, in: path, required: true, schema: {type: string}}
    post:
      operationId: CreateCall
      parameters:
        - {name: StartTime<, in: query, schema: {type: string}}
        - {name: StartTime>, in: query, schema: {type: string}}
        - {name: Tags, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string}}}
        - {name: X-Trace, in: header, schema: {type: string}}
        - {name: session, in: cookie, schema: {type: string}}
        - {name: Action, in: query, required: true, schema: {type: string, enum: [Create]}}
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [To]
              properties: {To: {type: string}, Timeout: {type: integer}}
      responses:
        '201':
          description: ok
          content: {application/json: {schema: {$ref: '#/components/schemas/File'}}}
        '404':
          description: nf
          content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}
        4XX:
          description: client
          content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}
        default:
          description: other
          content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}
  /files/{id}/content:
    put:
      operationId: UploadFile
      parameters:
        - {name: id, in: path, required: true, style: label, schema: {type: string}}
      requestBody:
        content:
          application/octet-stream: {schema: {type: string, format: binary}}
      responses:
        '200':
          description: ok
          content: {image/png: {}, image/jpg: {}}
  /files/content:
    post:
      operationId: CreateFile
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/File'}}
          multipart/form-data:
            schema:
              type: object
              properties: {attributes: {type: string}, file: {type: string, format: binary}}
      responses:
        '204': {description: none}
  /?Action=SendMessage&Version=2012-11-05:
    get:
      operationId: SendMessage
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {type: string}}}}}
`

func TestOperationsModel(t *testing.T) {
	svc, diags, err := load(t, opsSpec)
	require.NoError(t, err)
	ops := map[string]*Operation{}
	for _, op := range svc.Operations {
		ops[op.Name] = op
	}

	call := ops["CreateCall"]
	require.Equal(t, "/accounts/{AccountSid}/calls.json", call.Path)
	require.Equal(t, []Param{
		{Field: "AccountSid", Name: "AccountSid", In: "path", Style: "simple"},
		{Field: "StartTimeLt", Name: "StartTime<", In: "query", Style: "form", Explode: true},
		{Field: "StartTimeGt", Name: "StartTime>", In: "query", Style: "form", Explode: true},
		{Field: "Tags", Name: "Tags", In: "query", Style: "pipeDelimited"},
		{Field: "XTrace", Name: "X-Trace", In: "header", Style: "simple"},
		{Field: "Session", Name: "session", In: "cookie", Style: "form", Explode: true},
	}, call.Params, "path-level parameters first; <> suffixes get distinct Go names; defaults per location")
	require.Equal(t, []FixedHeader{{Name: "Action", Value: "Create"}}, call.Query, "a required one-value enum is sent automatically")
	require.Equal(t, Body{Kind: BodyForm, ContentType: "application/x-www-form-urlencoded"}, call.Body)
	require.Equal(t, "CreateCallInput", call.Input)
	in := typeNamed(svc, "CreateCallInput")
	var names []string
	for _, f := range in.Fields {
		names = append(names, f.Name+"/"+f.In)
	}
	require.Equal(t, []string{"AccountSid/path", "StartTimeLt/query", "StartTimeGt/query", "Tags/query", "XTrace/header", "Session/cookie", "Timeout/", "To/"}, names,
		"parameter fields first, then the form fields")
	require.Equal(t, "CreateCallOutput", call.Output, "File is also CreateFile's request body: shared, so embedded")
	require.Equal(t, "File", typeNamed(svc, "CreateCallOutput").Embed)
	require.Equal(t, OutputSelf, call.OutputBody)
	require.Equal(t, []StatusError{{Status: "404", Name: "Problem"}, {Status: "4XX", Name: "CreateCall4XXError"}, {Status: "default", Name: "Problem"}}, call.StatusErrors)
	require.Empty(t, call.Errors, "no aws2openapi 48x codes")

	up := ops["UploadFile"]
	require.Equal(t, Body{Kind: BodyRaw, ContentType: "application/octet-stream", Field: "Body"}, up.Body)
	require.Equal(t, OutputStreamField, up.OutputBody, "an image is streamed to the caller, unread")
	require.Equal(t, Param{Field: "Id", Name: "id", In: "path", Style: "label"}, up.Params[0])
	require.Equal(t, ScalarReader, typeNamed(svc, "UploadFileInput").Fields[1].Type.Scalar)

	cf := ops["CreateFile"]
	require.Equal(t, Body{Kind: BodyJSON, ContentType: "application/json", Others: []string{"multipart/form-data"}}, cf.Body, "JSON is preferred; the others are listed")
	require.Equal(t, "File", cf.Input)
	require.Equal(t, OutputNone, cf.OutputBody)

	sm := ops["SendMessage"]
	require.Equal(t, "/", sm.Path)
	require.Equal(t, []FixedHeader{{Name: "Action", Value: "SendMessage"}, {Name: "Version", Value: "2012-11-05"}}, sm.Query, "pairs of a ?k=v path key are fixed query parameters")
	require.Equal(t, OutputJSONField, sm.OutputBody)

	require.Equal(t, []AuthOption{
		{Option: "WithBasicAuth", Scheme: "basic", Kind: "basic"},
		{Option: "WithAPIKey", Scheme: "key", Kind: "apiKey", In: "query", Name: "api_key"},
		{Option: "WithBearerToken", Scheme: "oauth", Kind: "bearer"},
	}, svc.Auth)
	require.Equal(t, []Server{{URL: "https://{region}.api.test/v1", Defaults: map[string]string{"region": "eu"},
		Vars: []ServerVar{{Name: "region", Default: "eu"}}, Source: "/servers/0", Name: "Server1"}}, svc.Servers)

	require.Equal(t, "BOX_PLATFORM_API", svc.Retry.EnvPrefix)
	require.Empty(t, svc.Retry.DefaultMode, "no x-retry: the runtime's global default (standard) decides, and explain says so")
	require.Equal(t, []string{"code", "error.code", "__type", "Code"}, svc.Retry.ErrorCodeFields)
	require.Equal(t, []string{"X-Amzn-ErrorType"}, svc.Retry.ErrorCodeHeaders)
	require.Equal(t, []string{"Retry-After"}, svc.Retry.ServerDelayHeaders)
	require.False(t, svc.Retry.Bare429NotRetried, "a bare 429 is throttling")
	require.True(t, ops["UploadFile"].Retry.RetrySafe, "PUT is retry-safe")
	require.False(t, call.Retry.RetrySafe, "POST is not")

	require.NotContains(t, strings.Join(diags, "\n"), "StartTime", "StartTime< and StartTime> get distinct names (Lt, Gt) without a collision")
}

func TestEnvPrefix(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Box Platform API", "BOX_PLATFORM_API"},
		{"Twilio - Api", "TWILIO_API"},
		{"  GitHub v3 REST API!", "GITHUB_V3_REST_API"},
		{"3scale", "API_3SCALE"},
		{"Ünïcode ☃", "N_CODE"},
		{"", "API"},
	} {
		t.Run(tc.title, func(t *testing.T) { require.Equal(t, tc.want, envPrefix(tc.title)) })
	}
}

func TestSplitPathKey(t *testing.T) {
	for _, tc := range []struct {
		name, key, path string
		pairs           []FixedHeader
		words           []string
	}{
		{"fragment of an aws2openapi key", "/#X-Amz-Target=Svc.GetItem", "/", []FixedHeader{{Name: "X-Amz-Target", Value: "Svc.GetItem"}}, nil},
		{"query part with two pairs, sorted", "/q/{Name}?Version=1&Action=Send", "/q/{Name}", []FixedHeader{{Name: "Action", Value: "Send"}, {Name: "Version", Value: "1"}}, nil},
		{"plain path", "/items/{id}", "/items/{id}", nil, nil},
		{"empty path is /", "#Action=List", "/", []FixedHeader{{Name: "Action", Value: "List"}}, nil},
		{"a suffix that is no query string gives no pairs", "/x#%zz", "/x", nil, nil},
		{"bare words are disambiguators", "/{Bucket}/{Key}#uploadId", "/{Bucket}/{Key}", nil, []string{"uploadId"}},
		{"words and pairs", "/{Bucket}/{Key}#select&select-type=2", "/{Bucket}/{Key}", []FixedHeader{{Name: "select-type", Value: "2"}}, []string{"select"}},
		{"a word that is no name", "/{Bucket}#lifecycle&deprecated!", "/{Bucket}", nil, []string{"lifecycle", "deprecated!"}},
		{"an empty value is a pair", "/x#a=", "/x", []FixedHeader{{Name: "a", Value: ""}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, pairs, words := splitPathKey(tc.key)
			require.Equal(t, tc.path, path)
			require.Equal(t, tc.pairs, pairs)
			require.Equal(t, tc.words, words)
		})
	}
}
