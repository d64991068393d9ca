package generator

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Pagination styles: how the request for the next page is made from the
// last page (x-pagination style).
const (
	// PageToken: the output carries the next page's token (outputToken),
	// sent back in the input member inputToken; an empty token ends the
	// pages (smithy's @paginated; DynamoDB's LastEvaluatedKey →
	// ExclusiveStartKey).
	PageToken = "token"
	// PageCursor: the next page starts after the last item: that item (or
	// its member itemToken) goes into inputToken; hasMore false or an empty
	// page ends the pages (Stripe's starting_after + has_more, Kinesis's
	// ExclusiveStartStreamName + HasMoreStreams).
	PageCursor = "cursor"
	// PageOffset: inputToken is an item offset, advanced by the number of
	// items of each page; an empty page (or hasMore false) ends the pages.
	PageOffset = "offset"
	// PageNumber: inputToken is a page number (the first page is 1 when
	// the caller leaves it unset), advanced by one; an empty page (or
	// hasMore false) ends the pages.
	PageNumber = "page"
	// PageLink: the next page's URL comes from the response (RFC 8288's
	// Link header with rel="next", or the output member nextLink, as Azure's
	// x-ms-pageable nextLinkName); its query parameters are set on the
	// input by name; no next URL ends the pages.
	PageLink = "link"
)

// paginationExtension is the operation-level extension declaring
// pagination.
const paginationExtension = "x-pagination"

// Pagination is how an operation's results come in pages: the Go access
// paths of everything the paginator reads and writes, resolved and checked
// against the input and output types at generation time.
type Pagination struct {
	// Style is PageToken, PageCursor, PageOffset, PageNumber or PageLink.
	Style string
	// Source is the JSON pointer of the declaration (an x-pagination,
	// x-speakeasy-pagination or x-ms-pageable mapping, or the operation for
	// the Link heuristic).
	Source string
	// Extension names what declared it ("x-pagination", …, or "Link
	// heuristic").
	Extension string
	// PagesMethod and ItemsMethod are the Go names of the page iterator
	// ("ScanPages") and the item iterator ("ScanItems", "" when no items
	// are declared).
	PagesMethod, ItemsMethod string
	// InputToken is the input member set for the next page (all styles
	// but PageLink).
	InputToken []Step
	// OutputToken is the output path of the next token (PageToken).
	OutputToken []Step
	// Items is the output path of the page's items (a slice); ItemType its
	// element type.
	Items    []Step
	ItemType TypeRef
	// ItemToken is the path inside the last item of the cursor (PageCursor;
	// empty: the item itself).
	ItemToken []Step
	// HasMore is the output path of a boolean that is false on the last
	// page (optional).
	HasMore []Step
	// PageSize is the input path of the page size (documentation only: the
	// caller sets it on the input).
	PageSize []Step
	// NextLink is the output path of the next page's URL (PageLink); empty:
	// the Link header.
	NextLink []Step
	// LinkParams are the query parameters a next URL may set (PageLink),
	// with the Go type of their input field.
	LinkParams []LinkParam
}

// LinkParam is a query parameter of a PageLink operation: the wire name and
// the input field the next URL's value goes into.
type LinkParam struct {
	Name  string
	Field Field
}

// Step is one member on an access path: its Go field name and how it is
// typed (Field.Type, and whether fieldType makes it a pointer).
type Step struct {
	Go   string
	Ptr  bool
	Type TypeRef
}

// pagination reads the operation's pagination declaration (x-pagination,
// else x-speakeasy-pagination, else x-ms-pageable) and resolves it against
// o's input and output types. A bad x-pagination is a located error; a
// foreign extension this generator cannot follow is a located warning and
// the operation gets no paginator.
func (b *builder) pagination(o *Operation, opNode *yaml.Node, ptr string, types map[string]*Type, methods namespace) {
	var decl *pageDecl
	switch {
	case mapValue(opNode, paginationExtension) != nil:
		decl = b.readXPagination(mapValue(opNode, paginationExtension), child(ptr, paginationExtension))
	case mapValue(opNode, "x-speakeasy-pagination") != nil:
		decl = b.readSpeakeasyPagination(mapValue(opNode, "x-speakeasy-pagination"), child(ptr, "x-speakeasy-pagination"))
	case mapValue(opNode, "x-ms-pageable") != nil:
		decl = b.readMSPageable(mapValue(opNode, "x-ms-pageable"), child(ptr, "x-ms-pageable"), o, types)
	case b.sel.LinkPagination && o.Method == "GET" && declaresLinkHeader(opNode):
		decl = &pageDecl{style: PageLink, ptr: ptr, ext: "Link heuristic", warn: true}
	}
	if decl == nil {
		return
	}
	p := &Pagination{Style: decl.style, Source: decl.ptr, Extension: decl.ext}
	r := pathResolver{b: b, types: types, warn: decl.warn}
	in, out := types[o.Input], types[o.Output]
	if o.OutputBody == OutputRawField || o.OutputBody == OutputNone {
		b.d.warnf(decl.ptr, "%s: the output %s is not decoded (%s), so %s gets no paginator", decl.ext, o.Output, map[bool]string{true: "no body", false: "not JSON"}[o.OutputBody == OutputNone], o.Name)
		return
	}
	ok := true
	need := func(cond bool, key, msg string) {
		if !cond && ok {
			r.report(child(decl.ptr, key), msg)
			ok = false
		}
	}
	resolve := func(dst *[]Step, t *Type, path, key string) {
		if path == "" || !ok {
			return
		}
		steps, good := r.resolve(t, path, child(decl.ptr, key))
		*dst, ok = steps, ok && good
	}
	resolve(&p.InputToken, in, decl.inputToken, "inputToken")
	resolve(&p.OutputToken, out, decl.outputToken, "outputToken")
	resolve(&p.Items, out, decl.items, "items")
	resolve(&p.HasMore, out, decl.hasMore, "hasMore")
	resolve(&p.PageSize, in, decl.pageSize, "pageSize")
	resolve(&p.NextLink, out, decl.nextLink, "nextLink")
	if !ok {
		return
	}
	if len(p.Items) == 0 && decl.items == "" && o.OutputBody == OutputJSONField {
		// A bare JSON array body (GitHub's list endpoints): its elements are
		// the items.
		for _, fl := range out.Fields {
			if fl.In == "body" && fl.Type.Kind == RefSlice {
				p.Items = []Step{{Go: fl.Name, Ptr: fieldIsPointer(fl), Type: fl.Type}}
			}
		}
	}
	if len(p.Items) > 0 {
		last := p.Items[len(p.Items)-1]
		need(last.Type.Kind == RefSlice && !last.Ptr, "items", "must name a list member, got "+describeRef(last.Type))
		if ok {
			p.ItemType = *last.Type.Elem
		}
	}
	if len(p.HasMore) > 0 {
		t := p.HasMore[len(p.HasMore)-1].Type
		need(t.Kind == RefScalar && t.Scalar == ScalarBool, "hasMore", "must name a boolean member, got "+describeRef(t))
	}
	switch p.Style {
	case PageToken:
		need(len(p.InputToken) == 1, "inputToken", "is required for style token and must name a member of the input "+o.Input)
		need(len(p.OutputToken) > 0, "outputToken", "is required for style token")
		if ok {
			it, ot := p.InputToken[0], p.OutputToken[len(p.OutputToken)-1]
			need(sameType(it.Type, ot.Type) && (it.Ptr == ot.Ptr || isStringish(it.Type, types)), "outputToken",
				"has type "+describeRef(ot.Type)+", but the input token "+it.Go+" has type "+describeRef(it.Type))
		}
	case PageCursor:
		need(len(p.InputToken) == 1, "inputToken", "is required for style cursor and must name a member of the input "+o.Input)
		need(len(p.Items) > 0, "items", "is required for style cursor (the cursor is the last item, or its member itemToken)")
		if ok && decl.itemToken != "" {
			if t := types[p.ItemType.Name]; p.ItemType.Kind != RefNamed || t == nil || t.Kind != KindStruct {
				need(false, "itemToken", "needs items whose elements are objects, got "+describeRef(p.ItemType))
			} else {
				resolve(&p.ItemToken, t, decl.itemToken, "itemToken")
			}
		}
		if ok {
			ct := p.ItemType
			if len(p.ItemToken) > 0 {
				ct = p.ItemToken[len(p.ItemToken)-1].Type
			}
			it := p.InputToken[0]
			need(sameType(it.Type, ct), "inputToken", "has type "+describeRef(it.Type)+", but the cursor taken from the last item has type "+describeRef(ct))
		}
	case PageOffset, PageNumber:
		need(len(p.InputToken) == 1, "inputToken", "is required for style "+p.Style+" and must name a member of the input "+o.Input)
		need(len(p.Items) > 0, "items", "is required for style "+p.Style+" (an empty page ends the pages)")
		if ok {
			t := p.InputToken[0].Type
			need(t.Kind == RefScalar && (t.Scalar == ScalarInt64 || t.Scalar == ScalarInt32), "inputToken", "must name an integer member, got "+describeRef(t))
		}
	case PageLink:
		for _, prm := range o.Params {
			if prm.In != "query" {
				continue
			}
			for _, fl := range in.Fields {
				if fl.Name == prm.Field && linkSettable(fl, types) {
					p.LinkParams = append(p.LinkParams, LinkParam{Name: prm.Name, Field: fl})
				}
			}
		}
		if len(p.NextLink) > 0 {
			t := p.NextLink[len(p.NextLink)-1].Type
			need(t.Kind == RefScalar && t.Scalar == ScalarString, "nextLink", "must name a string member, got "+describeRef(t))
		}
	}
	if !ok {
		return
	}
	p.PagesMethod, _ = methods.claim(o.Name + "Pages")
	if len(p.Items) > 0 {
		p.ItemsMethod, _ = methods.claim(o.Name + "Items")
	}
	o.Pagination = p
}

// pageDecl is a pagination declaration as read, before resolution: member
// paths in the declaration's own spelling (JSON names joined by ".").
type pageDecl struct {
	style, ptr, ext                                              string
	inputToken, outputToken, items, itemToken, hasMore, pageSize string
	nextLink                                                     string
	// warn: resolution failures are warnings (a foreign extension or the
	// heuristic), not errors.
	warn bool
}

// readXPagination reads an x-pagination mapping.
func (b *builder) readXPagination(n *yaml.Node, ptr string) *pageDecl {
	x := extReader{b.d}
	d := &pageDecl{style: PageToken, ptr: ptr, ext: paginationExtension}
	before := b.d.errors()
	str := func(dst *string) func(*yaml.Node, string) {
		return func(v *yaml.Node, p string) { *dst = x.str(v, p) }
	}
	x.mapping(n, ptr, map[string]func(*yaml.Node, string){
		"style": func(v *yaml.Node, p string) {
			d.style = x.oneOf(v, p, PageToken, PageCursor, PageOffset, PageNumber, PageLink)
		},
		"inputToken":  str(&d.inputToken),
		"outputToken": str(&d.outputToken),
		"items":       str(&d.items),
		"itemToken":   str(&d.itemToken),
		"hasMore":     str(&d.hasMore),
		"pageSize":    str(&d.pageSize),
		"nextLink":    str(&d.nextLink),
	})
	if b.d.errors() > before {
		return nil
	}
	return d
}

// readSpeakeasyPagination maps x-speakeasy-pagination onto a declaration:
// type cursor with outputs.nextCursor "$.a.b" is style token, with
// "$.items[-1].id" style cursor; offsetLimit is style offset (or page, for
// an input of type page); url is style link with outputs.nextUrl.
func (b *builder) readSpeakeasyPagination(n *yaml.Node, ptr string) *pageDecl {
	d := &pageDecl{ptr: ptr, ext: "x-speakeasy-pagination", warn: true}
	typ := mapValue(n, "type")
	outputs := mapValue(n, "outputs")
	jp := func(key string) string {
		v := mapValue(outputs, key)
		if v == nil {
			return ""
		}
		return strings.TrimPrefix(strings.TrimPrefix(v.Value, "$."), "$")
	}
	var inputTypes = map[string]string{}
	if ins := mapValue(n, "inputs"); ins != nil && ins.Kind == yaml.SequenceNode {
		for _, in := range ins.Content {
			if t, name := mapValue(in, "type"), mapValue(in, "name"); t != nil && name != nil {
				inputTypes[t.Value] = name.Value
			}
		}
	}
	d.items = jp("results")
	d.pageSize = inputTypes["limit"]
	switch {
	case typ == nil:
		b.d.warnf(ptr, "x-speakeasy-pagination has no type; the operation gets no paginator")
		return nil
	case typ.Value == "cursor":
		d.inputToken = inputTypes["cursor"]
		next := jp("nextCursor")
		if before, after, found := strings.Cut(next, "[-1]"); found {
			d.style, d.itemToken = PageCursor, strings.TrimPrefix(after, ".")
			if d.items == "" {
				d.items = before
			}
		} else {
			d.style, d.outputToken = PageToken, next
		}
	case typ.Value == "offsetLimit":
		d.style, d.inputToken = PageOffset, inputTypes["offset"]
		if d.inputToken == "" {
			d.style, d.inputToken = PageNumber, inputTypes["page"]
		}
	case typ.Value == "url":
		d.style, d.nextLink = PageLink, jp("nextUrl")
	default:
		b.d.warnf(child(ptr, "type"), "x-speakeasy-pagination type %q is not one of cursor, offsetLimit, url; the operation gets no paginator", typ.Value)
		return nil
	}
	return d
}

// readMSPageable maps Azure's x-ms-pageable onto a link-style declaration:
// nextLinkName is the output member holding the next page's URL (null: a
// single page, no paginator), itemName the items (default "value").
func (b *builder) readMSPageable(n *yaml.Node, ptr string, o *Operation, types map[string]*Type) *pageDecl {
	next := mapValue(n, "nextLinkName")
	if next == nil || next.Tag == "!!null" || next.Value == "" {
		return nil
	}
	d := &pageDecl{style: PageLink, ptr: ptr, ext: "x-ms-pageable", nextLink: next.Value, items: "value", warn: true}
	if v := mapValue(n, "itemName"); v != nil && v.Value != "" {
		d.items = v.Value
	}
	return d
}

// declaresLinkHeader reports whether an operation's 2xx response declares a
// Link header (GitHub's list endpoints do).
func declaresLinkHeader(opNode *yaml.Node) bool {
	resps := mapValue(opNode, "responses")
	if resps == nil || resps.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(resps.Content); i += 2 {
		if !is2xx(resps.Content[i].Value) {
			continue
		}
		hs := mapValue(resps.Content[i+1], "headers")
		if hs == nil || hs.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j < len(hs.Content); j += 2 {
			if strings.EqualFold(hs.Content[j].Value, "Link") {
				return true
			}
		}
	}
	return false
}

// pathResolver resolves dotted member paths against the model's types.
type pathResolver struct {
	b     *builder
	types map[string]*Type
	warn  bool
}

func (r pathResolver) report(ptr, msg string) {
	if r.warn {
		r.b.d.warnf(ptr, "%s; the operation gets no paginator", msg)
		return
	}
	r.b.d.errorf(ptr, "%s", msg)
}

// resolve turns "A.B" (JSON names) into steps through t's fields (and the
// fields of the type t embeds); every step but the last must be an object.
func (r pathResolver) resolve(t *Type, path, ptr string) ([]Step, bool) {
	var steps []Step
	for i, name := range strings.Split(path, ".") {
		if t == nil || t.Kind != KindStruct {
			r.report(ptr, "path "+path+": "+strings.Join(strings.Split(path, ".")[:i], ".")+" is not an object")
			return nil, false
		}
		fl, ok := r.field(t, name)
		if !ok {
			r.report(ptr, "path "+path+": "+t.Name+" has no member "+name+" (members: "+strings.Join(r.members(t), ", ")+")")
			return nil, false
		}
		if fl.ThreeState() {
			// openapi.Nullable[T] has no pointer or value form the paginator's
			// token and item code can read: kept out, with a warning, rather
			// than generating code that does not build.
			r.b.d.warnf(ptr, "path %s: %s.%s is nullable (openapi.Nullable), which a paginator does not follow yet; the operation gets no paginator", path, t.Name, fl.Name)
			return nil, false
		}
		steps = append(steps, Step{Go: fl.Name, Ptr: fieldIsPointer(fl), Type: fl.Type})
		t = nil
		if fl.Type.Kind == RefNamed {
			t = r.types[fl.Type.Name]
		}
	}
	return steps, true
}

// field finds the member of t with JSON (or wire) name name, looking into
// the type t embeds.
func (r pathResolver) field(t *Type, name string) (Field, bool) {
	// A body member first: aws2openapi copies some body members into the
	// query as well (Kinesis's NextToken), and the body is what is sent.
	for _, body := range []bool{true, false} {
		for _, fl := range t.Fields {
			if fl.JSONName == name && (fl.In == "") == body && fl.In != "body" {
				return fl, true
			}
		}
	}
	if e := r.types[t.Embed]; e != nil {
		return r.field(e, name)
	}
	return Field{}, false
}

func (r pathResolver) members(t *Type) []string {
	var out []string
	for _, fl := range t.Fields {
		if fl.JSONName != "" {
			out = append(out, fl.JSONName)
		}
	}
	if e := r.types[t.Embed]; e != nil {
		out = append(out, r.members(e)...)
	}
	slices.Sort(out)
	return out
}

// sameType reports whether two type references name the same Go type.
func sameType(a, b TypeRef) bool {
	if a.Kind != b.Kind || a.Scalar != b.Scalar || a.Name != b.Name {
		return false
	}
	if a.Elem == nil || b.Elem == nil {
		return a.Elem == b.Elem
	}
	return sameType(*a.Elem, *b.Elem)
}

// isStringish reports whether t is a string or a string enum, whose
// pointer and value forms the paginator converts between.
func isStringish(t TypeRef, types map[string]*Type) bool {
	if t.Kind == RefScalar {
		return t.Scalar == ScalarString
	}
	e := types[t.Name]
	return t.Kind == RefNamed && e != nil && e.Kind == KindEnum && !e.IntEnum
}

// linkSettable reports whether a query parameter's field can be set from a
// next URL's string value: a string, string enum, integer or boolean.
func linkSettable(fl Field, types map[string]*Type) bool {
	t := fl.Type
	if isStringish(t, types) {
		return true
	}
	return t.Kind == RefScalar && (t.Scalar == ScalarInt64 || t.Scalar == ScalarInt32 || t.Scalar == ScalarBool)
}

// describeRef names a type reference for messages ("[]string",
// "map[string]AttributeValue").
func describeRef(t TypeRef) string {
	switch t.Kind {
	case RefNamed:
		return t.Name
	case RefSlice:
		return "[]" + describeRef(*t.Elem)
	case RefMap:
		return "map[string]" + describeRef(*t.Elem)
	}
	return t.Scalar
}
