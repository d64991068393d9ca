package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Types are named after what holds them, never after a JSON pointer
// segment (issue 19): a schema reached through a reference into another
// component is named by the names along the pointer; an inline union
// variant by the one value that tells it apart.
func TestNamesFromMeaning(t *testing.T) {
	for ref, want := range map[string]string{
		"#/components/parameters/limit/schema":        "Limit",
		"#/components/schemas/A/properties/b/oneOf/0": "AB",
		"#/$defs/Foo": "Foo",
		"#/components/responses/Err/content/application~1json/schema": "Err",
		"#/paths/~1x/get/parameters/0/schema":                         "",
	} {
		require.Equal(t, want, refTypeName(ref), ref)
	}

	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: GetA
      parameters:
        - name: mode
          in: query
          schema: {$ref: '#/components/parameters/mode/schema'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Block'}
components:
  parameters:
    mode:
      name: mode
      in: query
      schema: {type: string, enum: [fast, slow]}
  schemas:
    Block:
      oneOf:
        - {type: object, required: [type], properties: {type: {const: text}, text: {type: string}}}
        - {type: object, required: [type], properties: {type: {const: image}, url: {type: string}}}
        - {type: string, enum: [dynamic]}
`)
	require.NoError(t, err)
	require.Empty(t, diags)
	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	require.Subset(t, names, []string{"Mode", "BlockText", "BlockImage", "BlockDynamic"})
	for _, n := range names {
		require.NotRegexp(t, `^(Schema|N)[0-9]*$|Variant[0-9]+$`, n)
	}
}

// A components/responses entry answering several operations is one type
// named after the response; each operation's output is its own
// <Operation>Output embedding it, never another operation's (issue 19:
// AddItemsToPlaylist returned *RemoveItemsPlaylistOutput).
func TestSharedResponseOutputsNamedByOperation(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /playlists/{id}/tracks:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    delete:
      operationId: RemoveItemsPlaylist
      responses:
        '200': {$ref: '#/components/responses/PlaylistSnapshotId'}
    post:
      operationId: AddItemsToPlaylist
      responses:
        '201': {$ref: '#/components/responses/PlaylistSnapshotId'}
  /playlists/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: GetPlaylist
      responses:
        '200': {$ref: '#/components/responses/OnePlaylist'}
components:
  responses:
    PlaylistSnapshotId:
      description: A snapshot ID for the playlist
      content:
        application/json:
          schema:
            type: object
            properties:
              snapshot_id: {type: string}
    OnePlaylist:
      description: one use only
      content:
        application/json:
          schema:
            type: object
            properties:
              name: {type: string}
`)
	require.NoError(t, err)
	require.Empty(t, diags)
	outputs := map[string]string{}
	for _, op := range svc.Operations {
		outputs[op.Name] = op.Output
	}
	require.Equal(t, map[string]string{"AddItemsToPlaylist": "AddItemsToPlaylistOutput",
		"RemoveItemsPlaylist": "RemoveItemsPlaylistOutput", "GetPlaylist": "GetPlaylistOutput"}, outputs)
	for _, name := range []string{"AddItemsToPlaylistOutput", "RemoveItemsPlaylistOutput"} {
		require.Equal(t, "PlaylistSnapshotId", typeNamed(svc, name).Embed, name)
	}
	shared := typeNamed(svc, "PlaylistSnapshotId")
	require.NotNil(t, shared)
	require.Equal(t, "/components/responses/PlaylistSnapshotId/content/application~1json/schema", shared.Source)
	require.Equal(t, "snapshot_id", shared.Fields[0].JSONName)
	require.Empty(t, typeNamed(svc, "GetPlaylistOutput").Embed) // used once: the output itself
}

// An error constructor several operations share is an error set, its doc
// naming them; one operation's own is named after it (issue 19: GetItem
// used newBatchGetItemError).
func TestErrorConstructorsNamedByOwner(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: GetA
      responses:
        '200': {description: ok}
        '404': {$ref: '#/components/responses/NotFound'}
    delete:
      operationId: DeleteA
      responses:
        '204': {description: ok}
        '404': {$ref: '#/components/responses/NotFound'}
  /b:
    get:
      operationId: GetB
      responses:
        '200': {description: ok}
        '409':
          description: conflict
          content:
            application/json:
              schema: {type: object, properties: {reason: {type: string}}}
components:
  responses:
    NotFound:
      description: not found
      content:
        application/json:
          schema: {type: object, properties: {message: {type: string}}}
`)
	require.NoError(t, err)
	files, err := Generate(svc, "t")
	require.NoError(t, err)
	var ops string
	for _, f := range files {
		if f.Name == "operations.go" {
			ops = string(f.Content)
		}
	}
	for _, want := range []string{
		"// newStatusErrorSet1 returns an empty modelled error of DeleteA and GetA for an HTTP status, or nil.\n",
		"// newGetBStatusError returns an empty modelled error of GetB for an HTTP status, or nil.\n",
	} {
		require.Contains(t, ops, want)
	}
	require.NotContains(t, ops, "newDeleteAStatusError")
	require.NotContains(t, ops, "newGetAStatusError")
}
