package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docsSpec has an operation with a summary and a description, a component
// schema with a required property, and two operations modelling the same
// errors by code.
const docsSpec = `openapi: 3.0.0
info: {title: Pets, version: '1'}
paths:
  /pets/{id}:
    get:
      operationId: GetPet
      summary: Get a pet.
      description: Returns the pet with this <code>id</code>.
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        '480': {description: gone, content: {application/json: {schema: {$ref: '#/components/schemas/Gone'}}}}
    delete:
      operationId: DeletePet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '204': {description: deleted}
        '480': {description: gone, content: {application/json: {schema: {$ref: '#/components/schemas/Gone'}}}}
components:
  schemas:
    Gone: {type: object, description: The pet is gone., properties: {message: {type: string}}}
    Pet:
      type: object
      description: A pet of the store.
      required: [name]
      properties:
        name: {type: string, description: The pet's name.}
        tag: {type: string}
`

// generatedDocs generates docsSpec and returns every doc comment of the
// package's declarations by name ("GetPet", "Pet", "Pet.Name"), as go/ast
// reads them.
func generatedDocs(t *testing.T) (map[string]string, map[string][]byte) {
	t.Helper()
	svc, _, err := load(t, docsSpec)
	require.NoError(t, err)
	files, err := Generate(svc, "pets")
	require.NoError(t, err)
	docs := map[string]string{}
	src := map[string][]byte{}
	fset := token.NewFileSet()
	for _, f := range files {
		src[f.Name] = f.Content
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				docs[d.Name.Name] = d.Doc.Text()
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					docs[ts.Name.Name] = d.Doc.Text()
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								docs[ts.Name.Name+"."+n.Name] = fl.Doc.Text()
							}
						}
					}
				}
			}
		}
	}
	return docs, src
}

func TestGeneratedDocs(t *testing.T) {
	docs, src := generatedDocs(t)
	require.Equal(t, "Get a pet.\n\nReturns the pet with this id.\n\nGetPet sends GET /pets/{id} with Accept: application/json.\n\n"+
		"Modelled errors (match with errors.As): Gone.\n\nAn input missing a required member, or with an empty path parameter, is refused before sending\n(*runtime.InvalidParamsError).\nSource: #/paths/~1pets~1%7Bid%7D/get\n", docs["GetPet"],
		"a method's doc starts with the spec's summary and description and ends with its source")
	require.Equal(t, "DeletePet sends DELETE /pets/{id}.\n\nModelled errors (match with errors.As): Gone.\n\n"+
		"An input missing a required member, or with an empty path parameter, is refused before sending\n(*runtime.InvalidParamsError).\n"+
		"Source: #/paths/~1pets~1%7Bid%7D/delete\n", docs["DeletePet"], "without spec text the generated sentence leads")
	require.Equal(t, "A pet of the store.\n\nPet is the output of GetPet.\nSource: #/components/schemas/Pet\n", docs["Pet"])
	require.Equal(t, "The pet's name.\nRequired.\n", docs["Pet.Name"])
	require.Equal(t, "", docs["Pet.Tag"], "an optional property without description has no comment")
	require.Equal(t, "The pet is gone.\n\nGone is the modelled error with code \"Gone\": its code alone does not make it retryable (the HTTP\n"+
		"status may).\n\nIts field Message is the body's member \"message\": it hides the promoted runtime.ErrorMetadata\n"+
		"field of the same name. The metadata the runtime read from the response stays in\n"+
		"e.ErrorMetadata; ErrorCode() and ErrorMessage() return its code (from the service's error-code\n"+
		"header or field, normalised) and message.\nSource: #/components/schemas/Gone\n", docs["Gone"])

	ops := string(src["operations.go"])
	require.Equal(t, 1, strings.Count(ops, "func newErrorSet1("), "DeletePet and GetPet model the same errors: one constructor, named after neither")
	require.NotContains(t, ops, "func newGetPetError(")
	require.NotContains(t, ops, "func newDeletePetError(")
	require.Contains(t, ops, "// newErrorSet1 returns an empty modelled error of DeletePet and GetPet for code, or nil.\n")
	require.Len(t, regexp.MustCompile(`NewError: +newErrorSet1[,}]`).FindAllString(ops, -1), 2, "both operations use it")
	for name, b := range src {
		require.NotContains(t, string(b), "retry-behavior", "%s names no file the user does not have", name)
		require.NotContains(t, string(b), "§", name)
	}
}

// TestAPIPhraseNeverDoublesAPI: a title that already ends in the word "API"
// is not given a second one in the Client's doc.
func TestAPIPhraseNeverDoublesAPI(t *testing.T) {
	for title, want := range map[string]string{
		"Tasky":        "Tasky API",
		"Tasky API":    "Tasky API",
		"Twilio - Api": "Twilio - Api",
		"OpenAPI Demo": "OpenAPI Demo API",
		"RAPI":         "RAPI API",
		"":             "API",
	} {
		if got := apiPhrase(title); got != want {
			t.Errorf("apiPhrase(%q) = %q, want %q", title, got, want)
		}
	}
}
