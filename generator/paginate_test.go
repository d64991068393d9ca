package generator

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pagedSpec is a spec with one JSON operation whose input and output have
// the members pagination and waiter declarations name; ext is YAML added to
// the operation (indented six spaces).
func pagedSpec(ext string) string {
	return `openapi: 3.0.0
info: {title: Paged, version: '1'}
paths:
  /things:
    post:
      operationId: ListThings
` + ext + `
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/ListThingsInput'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ListThingsOutput'}
components:
  schemas:
    ListThingsInput:
      type: object
      properties:
        Token: {type: string}
        Limit: {type: integer, format: int32}
        Offset: {type: integer, format: int64}
        After: {type: string}
    ListThingsOutput:
      type: object
      properties:
        Next: {type: string}
        Count: {type: integer}
        HasMore: {type: boolean}
        Things:
          type: array
          items: {$ref: '#/components/schemas/Thing'}
        Group:
          type: object
          properties:
            Status: {type: string, enum: [ACTIVE, CREATING]}
            Ready: {type: boolean}
    Thing:
      type: object
      properties:
        id: {type: string}
        state: {type: string}
`
}

// TestPaginationResolved: each style's declaration resolves to Go access
// paths on the input and output types.
func TestPaginationResolved(t *testing.T) {
	svc, diags, err := load(t, pagedSpec(`      x-pagination: {inputToken: Token, outputToken: Next, items: Things, pageSize: Limit}`))
	require.NoError(t, err, "%v", diags)
	p := svc.Operations[0].Pagination
	require.NotNil(t, p)
	require.Equal(t, PageToken, p.Style)
	require.Equal(t, "ListThingsPages", p.PagesMethod)
	require.Equal(t, "ListThingsItems", p.ItemsMethod)
	require.Equal(t, []Step{{Go: "Token", Ptr: true, Type: TypeRef{Kind: RefScalar, Scalar: ScalarString}}}, p.InputToken)
	require.Equal(t, TypeRef{Kind: RefNamed, Name: "Thing", Struct: true}, p.ItemType)

	svc, diags, err = load(t, pagedSpec(`      x-pagination: {style: cursor, inputToken: After, items: Things, itemToken: id, hasMore: HasMore}`))
	require.NoError(t, err, "%v", diags)
	p = svc.Operations[0].Pagination
	require.Equal(t, PageCursor, p.Style)
	require.Equal(t, "Id", goPath(p.ItemToken))
	require.Equal(t, "HasMore", goPath(p.HasMore))

	svc, _, err = load(t, pagedSpec(`      x-pagination: {style: offset, inputToken: Offset, items: Things}`))
	require.NoError(t, err)
	require.Equal(t, PageOffset, svc.Operations[0].Pagination.Style)

	// x-speakeasy-pagination maps onto the same model.
	svc, diags, err = load(t, pagedSpec(`      x-speakeasy-pagination:
        type: cursor
        inputs: [{name: After, in: requestBody, type: cursor}, {name: Limit, in: requestBody, type: limit}]
        outputs: {nextCursor: '$.Things[-1].id', results: '$.Things'}`))
	require.NoError(t, err, "%v", diags)
	p = svc.Operations[0].Pagination
	require.Equal(t, PageCursor, p.Style)
	require.Equal(t, "x-speakeasy-pagination", p.Extension)
	require.Equal(t, "Id", goPath(p.ItemToken))
	require.Equal(t, "Limit", goPath(p.PageSize))

	// x-ms-pageable: the next link in a body member.
	svc, diags, err = load(t, pagedSpec(`      x-ms-pageable: {nextLinkName: Next, itemName: Things}`))
	require.NoError(t, err, "%v", diags)
	p = svc.Operations[0].Pagination
	require.Equal(t, PageLink, p.Style)
	require.Equal(t, "Next", goPath(p.NextLink))
	svc, _, err = load(t, pagedSpec(`      x-ms-pageable: {nextLinkName: null}`))
	require.NoError(t, err)
	require.Nil(t, svc.Operations[0].Pagination, "nextLinkName null: one page")
}

// TestPaginationErrors: a bad x-pagination is a located error naming what
// is wrong; a foreign extension the generator cannot follow is a warning.
func TestPaginationErrors(t *testing.T) {
	const at = "spec.yaml#/paths/~1things/post/x-pagination/"
	for _, tc := range []struct{ ext, want string }{
		{`{inputToken: Token, outputToken: Nxt}`, at + "outputToken: path Nxt: ListThingsOutput has no member Nxt (members: Count, Group, HasMore, Next, Things)"},
		{`{inputToken: Tok, outputToken: Next}`, at + "inputToken: path Tok: ListThingsInput has no member Tok (members: After, Limit, Offset, Token)"},
		{`{inputToken: Token, outputToken: Count}`, at + "outputToken: has type int64, but the input token Token has type string"},
		{`{inputToken: Token, outputToken: Next, items: Group}`, at + "items: must name a list member, got ListThingsOutputGroup"},
		{`{inputToken: Token, outputToken: Next.Deeper}`, at + "outputToken: path Next.Deeper: Next is not an object"},
		{`{style: pages, inputToken: Token}`, at + "style: must be one of token, cursor, offset, page, link, got \"pages\""},
		{`{inputToken: Token, outputToken: Next, sort: asc}`, at + "sort: unknown key \"sort\" (known: hasMore, inputToken, itemToken, items, nextLink, outputToken, pageSize, style)"},
		{`{style: cursor, inputToken: After, items: Things, itemToken: state.x}`, at + "itemToken: path state.x: state is not an object"},
		{`{style: offset, inputToken: After, items: Things}`, at + "inputToken: must name an integer member, got string"},
		{`{style: cursor, inputToken: Offset, items: Things, itemToken: id}`, at + "inputToken: has type int64, but the cursor taken from the last item has type string"},
	} {
		t.Run(tc.ext, func(t *testing.T) {
			_, diags, err := load(t, pagedSpec("      x-pagination: "+tc.ext))
			require.Error(t, err)
			require.Contains(t, diags, tc.want)
		})
	}
	svc, diags, err := load(t, pagedSpec(`      x-speakeasy-pagination: {type: cursor, inputs: [{name: Nope, in: requestBody, type: cursor}], outputs: {nextCursor: '$.Next'}}`))
	require.NoError(t, err)
	require.Nil(t, svc.Operations[0].Pagination)
	require.Contains(t, diags, "spec.yaml#/paths/~1things/post/x-speakeasy-pagination/inputToken: path Nope: ListThingsInput has no member Nope (members: After, Limit, Offset, Token); the operation gets no paginator")
}

// TestWaitersCompiled: acceptors compile to paths over the output (and the
// input for inputOutput), with smithy's default delays.
func TestWaitersCompiled(t *testing.T) {
	svc, diags, err := load(t, pagedSpec(`      x-waiters:
        Ready:
          documentation: Waits for the group.
          minDelay: 5
          acceptors:
            - {state: success, matcher: {output: {path: Group.Status, expected: ACTIVE, comparator: stringEquals}}}
            - {state: failure, matcher: {output: {path: 'Things[].state', expected: failed, comparator: anyStringEquals}}}
            - {state: success, matcher: {output: {path: 'length(Things[]) > `+"`0`"+`', expected: 'true', comparator: booleanEquals}}}
            - {state: retry, matcher: {inputOutput: {path: input.After, expected: x, comparator: stringEquals}}}
            - {state: retry, matcher: {errorType: NotReady}}
            - {state: failure, matcher: {success: false}}`))
	require.NoError(t, err, "%v", diags)
	w := svc.Operations[0].Waiters[0]
	require.Equal(t, "WaitUntilReady", w.Method)
	require.Equal(t, 5*time.Second, w.MinDelay)
	require.Equal(t, 120*time.Second, w.MaxDelay, "smithy's default")
	require.Len(t, w.Acceptors, 6)
	require.True(t, w.Acceptors[1].Path.Projected)
	require.Equal(t, ">", w.Acceptors[2].Path.CompareOp)
	require.Equal(t, "in", w.Acceptors[3].Path.Root)
}

// TestWaiterErrors: every bad waiter value is a located error.
func TestWaiterErrors(t *testing.T) {
	const at = "spec.yaml#/paths/~1things/post/x-waiters/W/"
	acc := func(m string) string {
		return "      x-waiters:\n        W:\n          acceptors:\n            - {state: success, matcher: " + m + "}"
	}
	for _, tc := range []struct{ ext, want string }{
		{acc(`{output: {path: Group.Stat, expected: A, comparator: stringEquals}}`),
			at + "acceptors/0/matcher/output/path: path \"Group.Stat\": ListThingsOutputGroup has no member Stat (members: Ready, Status)"},
		{acc(`{output: {path: 'Things[?state==x]', expected: A, comparator: stringEquals}}`),
			at + "acceptors/0/matcher/output/path: the JMESPath subset is member names, \".\", \"[]\", length(…) and a comparison with a number; \"Things[?state==x]\" is outside it"},
		{acc(`{output: {path: 'Things[].state', expected: A, comparator: stringEquals}}`),
			at + "acceptors/0/matcher/output/comparator: stringEquals needs a path selecting one string; \"Things[].state\" selects a list of string"},
		{acc(`{output: {path: Group.Ready, expected: yes, comparator: booleanEquals}}`),
			at + "acceptors/0/matcher/output/comparator: booleanEquals expects \"true\" or \"false\", got \"yes\""},
		{acc(`{output: {path: Group.Status, expected: A, comparator: equals}}`),
			at + "acceptors/0/matcher/output/comparator: must be one of stringEquals, booleanEquals, allStringEquals, anyStringEquals, got \"equals\""},
		{acc(`{inputOutput: {path: After, expected: A, comparator: stringEquals}}`),
			at + "acceptors/0/matcher/inputOutput/path: an inputOutput path starts with input. or output., got \"After\""},
		{acc(`{status: 200}`), at + "acceptors/0/matcher/status: unknown matcher \"status\" (known: output, inputOutput, success, errorType)"},
		{"      x-waiters:\n        W:\n          minDelay: 30\n          maxDelay: 10\n          acceptors: [{state: success, matcher: {success: true}}]",
			at + "minDelay: must be at most maxDelay (10s), got 30s"},
		{"      x-waiters:\n        W: {acceptors: []}", at + "acceptors: must be a non-empty list of acceptors"},
	} {
		t.Run(tc.want[len(at):], func(t *testing.T) {
			_, diags, err := load(t, pagedSpec(tc.ext))
			require.Error(t, err)
			require.Contains(t, diags, tc.want, strings.Join(diags, "\n"))
		})
	}
}
