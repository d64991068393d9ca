package generator

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitPaginators writes the page iterator of a paginated operation and,
// when it declares items, its item iterator. Each page is one call of the
// operation's method (so of the retry engine); after an error the iterator
// yields it and stops.
func emitPaginators(f *jen.File, op *Operation, types map[string]*Type) {
	p := op.Pagination
	if p == nil {
		return
	}
	notes := []string{
		p.PagesMethod + " returns an iterator over the pages of " + op.Name + ", starting from in (not changed; nil is an empty input). Each page is one call of " + op.Name + ", with its retries; the iterator yields each page's output, and after an error it yields the error with a nil page and stops.",
		pageRule(p, op),
		"Pagination declared by " + p.Extension + ".",
	}
	if len(p.PageSize) > 0 {
		notes = append(notes, "Set the page size with in."+goPath(p.PageSize)+".")
	}
	f.Add(docComment(nil, notes, p.Source))
	body := []jen.Code{
		jen.Id("next").Op(":=").Id(op.Input).Values(),
		jen.If(jen.Id("in").Op("!=").Nil()).Block(jen.Id("next").Op("=").Op("*").Id("in")),
	}
	loop := []jen.Code{}
	call := jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("c").Dot(op.Name).Call(jen.Id("ctx"), jen.Op("&").Id("next"), jen.Id("opts").Op("..."))
	if p.Style == PageLink && len(p.NextLink) == 0 {
		loop = append(loop, jen.Var().Id("link").Index().String())
		call = jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("c").Dot(linkedName(op)).Call(jen.Id("ctx"), jen.Op("&").Id("next"), jen.Id("opts"), jen.Op("&").Id("link"))
	}
	loop = append(loop,
		call,
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("yield").Call(jen.Nil(), jen.Err()), jen.Return()),
		jen.If(jen.Op("!").Id("yield").Call(jen.Id("out"), jen.Nil())).Block(jen.Return()),
	)
	loop = append(loop, nextPage(p, op, types)...)
	body = append(body, repeatState(p)...)
	body = append(body, jen.For().Block(loop...))
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(p.PagesMethod).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Id("Options")),
	).Qual("iter", "Seq2").Types(jen.Op("*").Id(op.Output), jen.Error()).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Op("*").Id(op.Output), jen.Error()).Bool()).Block(body...)),
	)
	f.Line()
	if p.ItemsMethod == "" {
		return
	}
	item := typeExpr(p.ItemType)
	f.Add(docComment(nil, []string{
		p.ItemsMethod + " returns an iterator over the items (" + goPath(p.Items) + ") of every page of " + op.Name + ", in order, fetched page by page by " + p.PagesMethod + ". After an error it yields the error with a zero item and stops.",
	}, p.Source))
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(p.ItemsMethod).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Id("Options")),
	).Qual("iter", "Seq2").Types(item.Clone(), jen.Error()).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(item.Clone(), jen.Error()).Bool()).Block(
			jen.For(jen.List(jen.Id("page"), jen.Err()).Op(":=").Range().Id("c").Dot(p.PagesMethod).Call(jen.Id("ctx"), jen.Id("in"), jen.Id("opts").Op("..."))).Block(
				jen.If(jen.Err().Op("!=").Nil()).Block(
					jen.Var().Id("zero").Add(item.Clone()),
					jen.Id("yield").Call(jen.Id("zero"), jen.Err()),
					jen.Return(),
				),
				jen.Add(readInto("items", typeExpr(p.Items[len(p.Items)-1].Type), jen.Id("page"), p.Items, false)...),
				jen.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Id("items")).Block(
					jen.If(jen.Op("!").Id("yield").Call(jen.Id("item"), jen.Nil())).Block(jen.Return()),
				),
			),
		)),
	)
	f.Line()
}

// pageRule is the doc sentence saying how the next page is requested and
// when the pages end, and how to resume after an error.
func pageRule(p *Pagination, op *Operation) string {
	in := "in." + goPath(p.InputToken)
	switch p.Style {
	case PageToken:
		return "The next page sends " + goPath(p.OutputToken) + " of the last page as " + in + "; an empty one ends the pages (so does a string token equal to the one just sent). To resume after an error, call again with " + in + " set to the last good page's " + goPath(p.OutputToken) + "."
	case PageCursor:
		cur := "the last item"
		if len(p.ItemToken) > 0 {
			cur += "'s " + goPath(p.ItemToken)
		}
		s := "The next page sends " + cur + " of " + goPath(p.Items) + " as " + in + "; an empty page ends the pages"
		if len(p.HasMore) > 0 {
			s += ", as does " + goPath(p.HasMore) + " false"
		}
		return s + ", and so does a cursor equal to the one just sent (the server repeating itself). To resume after an error, call again with " + in + " set to " + cur + " of the last good page."
	case PageOffset, PageNumber:
		what := "advanced by the number of items of the last page"
		if p.Style == PageNumber {
			what = "advanced by one (unset means page 1)"
		}
		s := "The next page sends " + in + " " + what + "; an empty " + goPath(p.Items) + " ends the pages"
		if len(p.HasMore) > 0 {
			s += ", as does " + goPath(p.HasMore) + " false"
		}
		return s + "; items equal to the previous page's (a server ignoring " + in + " would send them forever) end the pages with a *runtime.RepeatedPageError naming the " + in + " that reads on. To resume after an error, call again from the input of the failed page."
	}
	src := "the Link header's rel=\"next\" URL (RFC 8288)"
	if len(p.NextLink) > 0 {
		src = "the URL in " + goPath(p.NextLink)
	}
	return "The next page's query parameters come from " + src + " and are set on the input by name; no next URL ends the pages, as does a next URL equal to the one just followed (the server repeating itself), and a parameter the operation does not declare stops them with a *runtime.NextPageError."
}

// goPath renders steps as a Go selector path ("Table.TableStatus").
func goPath(steps []Step) string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.Go
	}
	return strings.Join(names, ".")
}

// walk renders the statements that read the value at steps from root,
// checking every pointer on the way for nil (a nil one selects nothing;
// the checks joined with &&), and hand the value to leaf. deref: a pointer
// leaf is dereferenced (after its nil check); otherwise it is handed as is.
func walk(root *jen.Statement, steps []Step, deref bool, leaf func(v *jen.Statement) []jen.Code) []jen.Code {
	var conds []jen.Code
	v := root
	for i, s := range steps {
		v = v.Clone().Dot(s.Go)
		last := i == len(steps)-1
		if s.Ptr && (!last || deref) {
			conds = append(conds, v.Clone().Op("!=").Nil())
			if last {
				v = jen.Op("*").Add(v)
			}
		}
	}
	return guarded(conds, leaf(v))
}

// readInto renders `name := root.A.B` when no pointer on the path needs a
// nil check, else `var name T` followed by walk's checked read.
func readInto(name string, typ *jen.Statement, root *jen.Statement, steps []Step, deref bool) []jen.Code {
	plain := true
	for i, s := range steps {
		if s.Ptr && (i < len(steps)-1 || deref) {
			plain = false
		}
	}
	if plain {
		v := root.Clone()
		for _, s := range steps {
			v = v.Dot(s.Go)
		}
		return []jen.Code{jen.Id(name).Op(":=").Add(v)}
	}
	return append([]jen.Code{jen.Var().Id(name).Add(typ)}, walk(root, steps, deref, func(v *jen.Statement) []jen.Code {
		return []jen.Code{jen.Id(name).Op("=").Add(v)}
	})...)
}

// stepType is the Go type of a step's field as declared.
func stepType(s Step) *jen.Statement {
	if s.Ptr {
		return jen.Op("*").Add(typeExpr(s.Type))
	}
	return typeExpr(s.Type)
}

// isEmpty renders the test for "no token" of a value of step s's type.
func isEmpty(v *jen.Statement, s Step, types map[string]*Type) *jen.Statement {
	switch {
	case s.Ptr && isStringish(s.Type, types):
		return v.Clone().Op("==").Nil().Op("||").Op("*").Add(v.Clone()).Op("==").Lit("")
	case s.Ptr:
		return v.Clone().Op("==").Nil()
	case s.Type.Kind == RefSlice || s.Type.Kind == RefMap || s.Type.Kind == RefScalar && (s.Type.Scalar == ScalarBytes || s.Type.Scalar == ScalarRawJSON):
		return jen.Len(v.Clone()).Op("==").Lit(0)
	case isStringish(s.Type, types):
		return v.Clone().Op("==").Lit("")
	case s.Type.Kind == RefScalar && s.Type.Scalar == ScalarBool:
		return jen.Op("!").Add(v.Clone())
	}
	return v.Clone().Op("==").Lit(0)
}

// assign renders dst = v, converting between a pointer and a value
// (v known non-empty, so a pointer v is non-nil).
func assign(dst *jen.Statement, dstPtr bool, v *jen.Statement, vPtr bool) []jen.Code {
	switch {
	case dstPtr == vPtr:
		return []jen.Code{dst.Op("=").Add(v)}
	case dstPtr:
		return []jen.Code{jen.Id("val").Op(":=").Add(v), dst.Op("=").Op("&").Id("val")}
	}
	return []jen.Code{dst.Op("=").Op("*").Add(v)}
}

// nextPage renders the end-of-pages tests and the changes to `next` that
// request the page after `out`.
func nextPage(p *Pagination, op *Operation, types map[string]*Type) []jen.Code {
	var out []jen.Code
	if len(p.HasMore) > 0 {
		out = append(out, readInto("more", jen.Bool(), jen.Id("out"), p.HasMore, true)...)
		out = append(out, jen.If(jen.Op("!").Id("more")).Block(jen.Return()))
	}
	var items []jen.Code
	if len(p.Items) > 0 && p.Style != PageToken && p.Style != PageLink {
		items = append(items, readInto("items", typeExpr(p.Items[len(p.Items)-1].Type), jen.Id("out"), p.Items, false)...)
		items = append(items, jen.If(jen.Len(jen.Id("items")).Op("==").Lit(0)).Block(jen.Return()))
	}
	switch p.Style {
	case PageToken:
		ot, it := p.OutputToken[len(p.OutputToken)-1], p.InputToken[0]
		out = append(out, readInto("nextToken", stepType(ot), jen.Id("out"), p.OutputToken, false)...)
		out = append(out, jen.If(isEmpty(jen.Id("nextToken"), ot, types)).Block(jen.Return()))
		if same := sameAsSent(it, jen.Id("nextToken"), ot.Ptr, types); same != nil {
			out = append(out, jen.Comment("A server repeating the token sent would page forever."), jen.If(same).Block(jen.Return()))
		}
		out = append(out, assign(jen.Id("next").Dot(it.Go), it.Ptr, jen.Id("nextToken"), ot.Ptr)...)
	case PageCursor:
		it := p.InputToken[0]
		out = append(out, items...)
		out = append(out, jen.Id("last").Op(":=").Id("items").Index(jen.Len(jen.Id("items")).Op("-").Lit(1)))
		if len(p.ItemToken) == 0 {
			if same := sameAsSent(it, jen.Id("last"), false, types); same != nil {
				out = append(out, jen.Comment("A server repeating the cursor sent would page forever."), jen.If(same).Block(jen.Return()))
			}
			out = append(out, assign(jen.Id("next").Dot(it.Go), it.Ptr, jen.Id("last"), false)...)
			break
		}
		ct := p.ItemToken[len(p.ItemToken)-1]
		out = append(out, readInto("cursor", stepType(ct), jen.Id("last"), p.ItemToken, false)...)
		out = append(out, jen.If(isEmpty(jen.Id("cursor"), ct, types)).Block(jen.Return()))
		if same := sameAsSent(it, jen.Id("cursor"), ct.Ptr, types); same != nil {
			out = append(out, jen.Comment("A server repeating the cursor sent would page forever."), jen.If(same).Block(jen.Return()))
		}
		out = append(out, assign(jen.Id("next").Dot(it.Go), it.Ptr, jen.Id("cursor"), ct.Ptr)...)
	case PageOffset, PageNumber:
		it := p.InputToken[0]
		out = append(out, items...)
		typ := typeExpr(it.Type)
		start := jen.Lit(0)
		if p.Style == PageNumber {
			start = jen.Lit(1)
		}
		cur := jen.Id("next").Dot(it.Go)
		if it.Ptr {
			out = append(out, jen.Var().Id("n").Add(typ.Clone()).Op("=").Add(start),
				jen.If(cur.Clone().Op("!=").Nil()).Block(jen.Id("n").Op("=").Op("*").Add(cur.Clone())))
		} else {
			out = append(out, jen.Id("n").Op(":=").Add(cur.Clone()))
			if p.Style == PageNumber {
				out = append(out, jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Id("n").Op("=").Lit(1)))
			}
		}
		if p.Style == PageOffset {
			out = append(out, jen.Id("n").Op("+=").Add(typ.Clone()).Call(jen.Len(jen.Id("items"))))
		} else {
			out = append(out, jen.Id("n").Op("++"))
		}
		// Only the items can show a server ignoring the page asked for
		// (which would page forever); identical pages end with an error
		// saying where to read on, never silently.
		out = append(out, jen.Comment("A server ignoring the page asked for would page forever."),
			jen.If(jen.Id("prev").Op("!=").Nil().Op("&&").Qual("reflect", "DeepEqual").Call(jen.Id("items"), jen.Id("prev"))).Block(
				jen.Id("yield").Call(jen.Nil(), jen.Op("&").Qual(runtimePath, "RepeatedPageError").Values(jen.Dict{
					jen.Id("Operation"): jen.Lit(op.Name), jen.Id("Field"): jen.Lit(it.Go), jen.Id("Next"): jen.Int64().Call(jen.Id("n"))})),
				jen.Return()),
			jen.Id("prev").Op("=").Id("items"))
		if it.Ptr {
			out = append(out, cur.Clone().Op("=").Op("&").Id("n"))
		} else {
			out = append(out, cur.Clone().Op("=").Id("n"))
		}
	case PageLink:
		out = append(out, linkNext(p, op, types)...)
	}
	return out
}

// linkedName is the unexported method of a Link-header paginated operation
// that also returns the response's Link header.
func linkedName(op *Operation) string {
	return strings.ToLower(op.Name[:1]) + op.Name[1:] + "Linked"
}

// linkNext renders the end test and the input changes of a link-style
// paginator: the next URL (from `link`, or the output member), its query
// parameters set on `next` by name.
func linkNext(p *Pagination, op *Operation, types map[string]*Type) []jen.Code {
	var out []jen.Code
	if len(p.NextLink) == 0 {
		out = append(out,
			jen.List(jen.Id("nextURL"), jen.Id("ok")).Op(":=").Qual(runtimePath, "NextLink").Call(jen.Id("link")),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return()))
	} else {
		out = append(out, jen.Id("nextURL").Op(":=").Lit(""))
		out = append(out, walk(jen.Id("out"), p.NextLink, true, func(v *jen.Statement) []jen.Code {
			return []jen.Code{jen.Id("nextURL").Op("=").Add(v)}
		})...)
		out = append(out, jen.If(jen.Id("nextURL").Op("==").Lit("")).Block(jen.Return()))
	}
	out = append(out,
		jen.Comment("A server repeating the URL followed would page forever."),
		jen.If(jen.Id("nextURL").Op("==").Id("followed")).Block(jen.Return()),
		jen.Id("followed").Op("=").Id("nextURL"),
		jen.List(jen.Id("query"), jen.Err()).Op(":=").Qual(runtimePath, "NextPageQuery").Call(jen.Lit(op.Name), jen.Id("nextURL")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("yield").Call(jen.Nil(), jen.Err()), jen.Return()),
	)
	fail := func(param *jen.Statement, cause jen.Code) []jen.Code {
		return []jen.Code{
			jen.Id("yield").Call(jen.Nil(), jen.Op("&").Qual(runtimePath, "NextPageError").Values(jen.Dict{
				jen.Id("Operation"): jen.Lit(op.Name), jen.Id("URL"): jen.Id("nextURL"), jen.Id("Param"): param, jen.Id("Err"): cause,
			})),
			jen.Return(),
		}
	}
	var cases []jen.Code
	for _, lp := range p.LinkParams {
		dst := jen.Id("next").Dot(lp.Field.Name)
		ptr := fieldIsPointer(lp.Field)
		t := lp.Field.Type
		var set []jen.Code
		switch {
		case isStringish(t, types):
			v := jen.Id("v")
			if t.Kind == RefNamed {
				v = jen.Id(t.Name).Call(jen.Id("v"))
			}
			set = assign(dst, ptr, v, false)
		case t.Scalar == ScalarBool:
			set = append(set, jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("strconv", "ParseBool").Call(jen.Id("v")),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Id("name"), jen.Err())...))
			set = append(set, assign(dst, ptr, jen.Id("b"), false)...)
		default:
			bits := 64
			if t.Scalar == ScalarInt32 {
				bits = 32
			}
			set = append(set, jen.List(jen.Id("i"), jen.Err()).Op(":=").Qual("strconv", "ParseInt").Call(jen.Id("v"), jen.Lit(10), jen.Lit(bits)),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Id("name"), jen.Err())...))
			conv := jen.Id("i")
			if bits == 32 {
				conv = jen.Int32().Call(jen.Id("i"))
			}
			set = append(set, assign(dst, ptr, conv, false)...)
		}
		cases = append(cases, jen.Case(jen.Lit(lp.Name)).Block(set...))
	}
	cases = append(cases, jen.Default().Block(fail(jen.Id("name"), jen.Qual(runtimePath, "ErrUndeclaredParameter"))...))
	// In name order, so the same URL always fails on the same parameter.
	out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id("name")).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(jen.Id("query")))).Block(
		jen.Id("values").Op(":=").Id("query").Index(jen.Id("name")),
		jen.Id("v").Op(":=").Id("values").Index(jen.Len(jen.Id("values")).Op("-").Lit(1)),
		jen.Switch(jen.Id("name")).Block(cases...),
	))
	return out
}

// repeatState renders the variables a paginator keeps across pages to see a
// server repeat itself: the next URL followed (link) or the last page's
// items (offset, number). Tokens and cursors are compared with the input's
// own field (sameAsSent).
func repeatState(p *Pagination) []jen.Code {
	switch p.Style {
	case PageLink:
		return []jen.Code{jen.Id("followed").Op(":=").Lit("")}
	case PageOffset, PageNumber:
		return []jen.Code{jen.Var().Id("prev").Add(typeExpr(p.Items[len(p.Items)-1].Type))}
	}
	return nil
}

// sameAsSent renders the test "got equals the input's token field it, the
// one the page just fetched was asked with" (a pointer side nil-checked);
// nil when it is not a string or integer (never compared).
func sameAsSent(it Step, got *jen.Statement, gotPtr bool, types map[string]*Type) *jen.Statement {
	integer := it.Type.Kind == RefScalar && (it.Type.Scalar == ScalarInt32 || it.Type.Scalar == ScalarInt64)
	if !isStringish(it.Type, types) && !integer {
		return nil
	}
	sent := jen.Id("next").Dot(it.Go)
	switch {
	case it.Ptr && gotPtr:
		return sent.Clone().Op("!=").Nil().Op("&&").Op("*").Add(sent.Clone()).Op("==").Op("*").Add(got.Clone())
	case it.Ptr:
		return sent.Clone().Op("!=").Nil().Op("&&").Op("*").Add(sent.Clone()).Op("==").Add(got.Clone())
	case gotPtr:
		return sent.Clone().Op("==").Op("*").Add(got.Clone())
	}
	return sent.Clone().Op("==").Add(got.Clone())
}
