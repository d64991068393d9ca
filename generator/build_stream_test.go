package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// streamSpec has the response shapes of streaming APIs: JSON or events
// chosen by a stream flag (Mistral's chat), events only with a schema
// describing the whole event, events with a plain schema and a sentinel of
// its own, a binary download, JSON lines.
const streamSpec = `openapi: 3.0.3
info: {title: Streams, version: '1'}
components:
  schemas:
    ChatRequest:
      type: object
      properties:
        model: {type: string}
        stream: {type: boolean, default: false}
    Chunk:
      type: object
      properties: {id: {type: string}, delta: {type: string}}
    ChunkEvent:
      type: object
      required: [data]
      properties:
        data: {$ref: '#/components/schemas/Chunk'}
paths:
  /chat:
    post:
      operationId: chat
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/ChatRequest'}}}
      responses:
        '200':
          description: ok
          content:
            application/json: {schema: {type: object, properties: {text: {type: string}}}}
            text/event-stream: {schema: {$ref: '#/components/schemas/ChunkEvent'}}
  /logs:
    get:
      operationId: tailLogs
      responses:
        '200':
          description: ok
          content:
            text/event-stream:
              x-speakeasy-sse-sentinel: END
              schema: {$ref: '#/components/schemas/Chunk'}
  /files/{id}:
    get:
      operationId: download
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
  /export:
    get:
      operationId: export
      responses:
        '200': {description: ok, content: {application/x-ndjson: {schema: {type: string}}}}
  /readme:
    get:
      operationId: readme
      responses:
        '200': {description: ok, content: {text/plain: {schema: {type: string}}}}
`

func TestStreamingOperationsModel(t *testing.T) {
	svc, diags, err := load(t, streamSpec)
	require.NoError(t, err)
	ops := map[string]*Operation{}
	for _, op := range svc.Operations {
		ops[op.Name] = op
	}

	chat := ops["Chat"]
	require.Equal(t, &EventStream{Method: "ChatStream", Data: TypeRef{Kind: RefNamed, Name: "Chunk", Struct: true},
		Sentinel: "[DONE]", FlagField: "Stream", FlagPtr: true}, chat.Stream,
		"JSON and events: a second method; the data property of an event-shaped schema is the event type")
	require.Equal(t, "ChatOutput", chat.Output, "the JSON response keeps the operation's own method")
	require.Equal(t, OutputSelf, chat.OutputBody)

	logs := ops["TailLogs"]
	require.Equal(t, &EventStream{Method: "TailLogs", Only: true, Data: TypeRef{Kind: RefNamed, Name: "Chunk", Struct: true}, Sentinel: "END"}, logs.Stream,
		"events only: the operation's method returns the stream; a plain schema is the event type; the spec's sentinel wins")
	require.Empty(t, logs.Output)

	dl := ops["Download"]
	require.Equal(t, OutputStreamField, dl.OutputBody)
	require.Equal(t, ScalarReadCloser, typeNamed(svc, "DownloadOutput").Fields[0].Type.Scalar)
	require.Equal(t, OutputStreamField, ops["Export"].OutputBody)
	require.Equal(t, OutputRawField, ops["Readme"].OutputBody, "text stays bytes")
	require.Contains(t, diags, "spec.yaml#/paths/~1export/get/responses/200/content/application~1x-ndjson: "+
		"application/x-ndjson responses are not decoded (their framing is not modelled); the output's Body field streams the bytes")
}

func TestStreamingOperationsEmit(t *testing.T) {
	svc, _, err := load(t, streamSpec)
	require.NoError(t, err)
	files := emitFiles(t, svc)
	ops := files["operations.go"]
	for _, want := range []string{
		"func (c *Client) ChatStream(ctx context.Context, in *ChatRequest, opts ...func(*Options)) (*openapi.EventStream[Chunk], error) {",
		"func (c *Client) Chat(ctx context.Context, in *ChatRequest, opts ...func(*Options)) (*ChatOutput, error) {",
		"func (c *Client) TailLogs(ctx context.Context, in *TailLogsInput, opts ...func(*Options)) (*openapi.EventStream[Chunk], error) {",
		`return openapi.NewEventStream[Chunk](s, openapi.EventStreamOptions{Sentinel: "END"}), nil`,
		"return &DownloadOutput{\n\t\tBody:           s,\n\t\tResultMetadata: s.Metadata(),\n\t}, nil",
		"\t// Stream asks for the event stream this method reads.\n\tcp := *in\n\ton := true\n\tcp.Stream = &on\n\tin = &cp\n",
		"\tif in.Stream != nil && *in.Stream {\n\t\tcp := *in\n\t\ton := false\n\t\tcp.Stream = &on\n\t\tin = &cp\n\t}\n",
	} {
		require.Contains(t, ops, want)
	}
	require.Contains(t, files["types.go"], "Body io.ReadCloser")
	require.Contains(t, files["client.go"], "func (c *Client) open(")
}

// emitFiles generates svc and returns each file's text by name.
func emitFiles(t *testing.T, svc *Service) map[string]string {
	t.Helper()
	files, err := Generate(svc, "streams")
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range files {
		out[f.Name] = string(f.Content)
	}
	return out
}
