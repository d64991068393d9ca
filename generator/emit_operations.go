package generator

import (
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// emitOperations writes operations.go: per operation its runtime.Operation,
// its error constructors and its Client method. Operations modelling the
// same errors (by code, or by status) share one constructor, an error set
// (newErrorSet1, newStatusErrorSet2: numbered in operation order, its doc
// naming the operations); one used by a single operation is named after it.
func emitOperations(f *jen.File, svc *Service) error {
	byStatus := map[string]string{} // status mapping → constructor name
	var owners []*Operation         // the first operation of each mapping
	var ownerFuncs []string         // and its constructor's name
	byCode := map[string]string{}   // error list → constructor name
	types := typesByName(svc)
	headers := fixedHeaderVars{}
	// Constructor names live in one namespace: "new"+op+"StatusError" of
	// operation UpdateAssociation is also "new"+op+"Error" of operation
	// UpdateAssociationStatus; the later one takes a numeric suffix.
	funcs := namespace{}
	claimFunc := func(name string) string { got, _ := funcs.claim(name); return got }
	users := map[string][]string{} // key → the operations using it, in order
	for _, op := range svc.Operations {
		codes, statuses := strings.Join(op.Errors, ","), statusKey(op.StatusErrors)
		users[codes] = append(users[codes], op.Name)
		users[statuses] = append(users[statuses], op.Name)
	}
	// A constructor one operation uses is named after it; one several share
	// is an error set, numbered in operation order, never named after the
	// first operation that happened to use it.
	sets := 0
	ctorName := func(op *Operation, key, kind string) string {
		if len(users[key]) > 1 {
			sets++
			return claimFunc("new" + kind + "Set" + strconv.Itoa(sets))
		}
		return claimFunc("new" + op.Name + kind)
	}
	for _, op := range svc.Operations {
		codeFunc, newCodeFunc := "", false
		if len(op.Errors) > 0 {
			key := strings.Join(op.Errors, ",")
			if codeFunc = byCode[key]; codeFunc == "" {
				codeFunc, newCodeFunc = ctorName(op, key, "Error"), true
				byCode[key] = codeFunc
			}
		}
		statusFunc := ""
		if len(op.StatusErrors) > 0 {
			key := statusKey(op.StatusErrors)
			statusFunc = byStatus[key]
			if statusFunc == "" {
				statusFunc = ctorName(op, key, "StatusError")
				byStatus[key] = statusFunc
				owners = append(owners, op)
				ownerFuncs = append(ownerFuncs, statusFunc)
			}
		}
		if err := emitOperationVar(f, op, codeFunc, statusFunc, headers); err != nil {
			return err
		}
		emitFormEncoding(f, op)
		if newCodeFunc {
			emitNewError(f, codeFunc, op, svc, users[strings.Join(op.Errors, ",")])
		}
		emitMethod(f, op, svc, types)
	}
	for i, op := range owners {
		emitNewStatusError(f, ownerFuncs[i], op, users[statusKey(op.StatusErrors)])
	}
	return nil
}

// ctorOwners names the operations an error constructor serves, for its
// doc: "GetItem", "GetItem and Query", "GetItem, Query and 3 other
// operations".
func ctorOwners(ops []string) string {
	switch len(ops) {
	case 1:
		return ops[0]
	case 2:
		return ops[0] + " and " + ops[1]
	case 3:
		return ops[0] + ", " + ops[1] + " and " + ops[2]
	}
	return ops[0] + ", " + ops[1] + " and " + strconv.Itoa(len(ops)-2) + " other operations"
}

// statusKey identifies a status → error shape mapping.
func statusKey(se []StatusError) string {
	var b strings.Builder
	for _, s := range se {
		b.WriteString(s.Status + "=" + s.Name + ";")
	}
	return b.String()
}

// fixedHeaderVars names the package-level maps holding the fixed headers of
// operations, by their literal's text: operations sending the same fixed
// headers share one map (issue 24: a map literal in each runtime.Operation
// compiled to code of its own run at init, 1,223 of them for GitHub; the
// runtime only reads Operation.FixedHeaders).
type fixedHeaderVars map[string]string

// name returns the variable holding h, writing it to f when h is new.
func (v fixedHeaderVars) name(f *jen.File, h map[string]string) string {
	keys := slices.Sorted(maps.Keys(h))
	entries := make([]jen.Code, len(keys))
	var text []string
	for i, k := range keys {
		entries[i] = jen.Lit(k).Op(":").Lit(h[k])
		text = append(text, k+": "+h[k])
	}
	key := strings.Join(text, "\n")
	if name := v[key]; name != "" {
		return name
	}
	name := "fixedHeaders" + strconv.Itoa(len(v)+1)
	v[key] = name
	// Spec text, as one plain line: a newline would make jennifer write a
	// /* */ block that a "*/" in a value could close.
	f.Comment(name + " is the runtime.Operation.FixedHeaders of the operations sending " + plainLine(strings.Join(text, ", ")) + ".")
	f.Var().Id(name).Op("=").Map(jen.String()).String().Values(entries...)
	f.Line()
	return name
}

// flatPolicy reports whether o sets no field holding a composite value
// (a backoff, status list, override) other than FixedHeaders: its literal
// is written on one line, as most operations of a large spec are; a
// richer policy keeps one field per line, to be read.
func flatPolicy(o runtime.Operation) bool {
	v := reflect.ValueOf(o)
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Struct, reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			if !f.IsZero() && v.Type().Field(i).Name != "FixedHeaders" {
				return false
			}
		}
	}
	return true
}

// emitOperationVar writes `var opX = runtime.Operation{…}`: op.Retry as a
// literal (on one line when flatPolicy), with the error constructors and its fixed headers'
// shared map named.
func emitOperationVar(f *jen.File, op *Operation, codeFunc, statusFunc string, headers fixedHeaderVars) error {
	fill := map[string]jen.Code{"NewError": nil, "NewErrorForStatus": nil}
	if len(op.Retry.FixedHeaders) > 0 {
		fill["FixedHeaders"] = jen.Id(headers.name(f, op.Retry.FixedHeaders))
	}
	if codeFunc != "" {
		fill["NewError"] = jen.Id(codeFunc)
	}
	if statusFunc != "" {
		fill["NewErrorForStatus"] = jen.Id(statusFunc)
	}
	render := runtimeLiteral
	if flatPolicy(op.Retry) {
		render = runtimeLiteralInline
	}
	lit, err := render(op.Retry, fill)
	if err != nil {
		return err
	}
	f.Comment("op" + op.Name + " describes " + op.Name + " to the runtime.")
	f.Var().Id("op" + op.Name).Op("=").Add(lit)
	f.Line()
	return nil
}

// emitNewError writes name, the constructor of the operation's modelled
// errors by code.
func emitNewError(f *jen.File, name string, op *Operation, svc *Service, users []string) {
	codes := map[string]string{}
	for _, e := range svc.Errors {
		codes[e.Name] = e.Code
	}
	f.Comment(name + " returns an empty modelled error of " + ctorOwners(users) + " for code, or nil.")
	f.Func().Id(name).Params(jen.Id("code").String()).Qual(runtimePath, "ModeledError").Block(
		jen.Switch(jen.Id("code")).BlockFunc(func(g *jen.Group) {
			for _, name := range op.Errors {
				g.Case(jen.Lit(codes[name])).Block(jen.Return(jen.Op("&").Id(name).Values()))
			}
		}),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// emitNewStatusError writes the constructor of errors modelled by HTTP
// status: exact statuses (grouped by shape), then "4XX"-style ranges, then
// "default".
func emitNewStatusError(f *jen.File, name string, op *Operation, users []string) {
	f.Comment(name + " returns an empty modelled error of " + ctorOwners(users) + " for an HTTP status, or nil.")
	fallback := jen.Nil()
	var order []string               // shape names in order of first exact status
	exact := map[string][]jen.Code{} // shape → its status conditions
	var ranges []jen.Code
	for _, s := range op.StatusErrors {
		ret := jen.Return(jen.Op("&").Id(s.Name).Values())
		switch {
		case s.Status == "default":
			fallback = jen.Op("&").Id(s.Name).Values()
		case strings.HasSuffix(s.Status, "XX"):
			lo := int(s.Status[0]-'0') * 100
			ranges = append(ranges, jen.Case(jen.Id("status").Op(">=").Lit(lo).Op("&&").Id("status").Op("<").Lit(lo+100)).Block(ret))
		default:
			if exact[s.Name] == nil {
				order = append(order, s.Name)
			}
			exact[s.Name] = append(exact[s.Name], jen.Id("status").Op("==").Id(s.Status))
		}
	}
	var cases []jen.Code
	for _, n := range order {
		cases = append(cases, jen.Case(exact[n]...).Block(jen.Return(jen.Op("&").Id(n).Values())))
	}
	cases = append(cases, ranges...)
	f.Func().Id(name).Params(jen.Id("status").Int()).Qual(runtimePath, "ModeledError").BlockFunc(func(g *jen.Group) {
		if len(cases) > 0 {
			g.Switch().Block(cases...)
		}
		g.Return(fallback)
	})
	f.Line()
}

// emitMethod writes the Client methods of an operation: the one returning
// its output and, when its 2xx response offers server-sent events, the one
// returning the event stream (the only one when that is all it offers).
func emitMethod(f *jen.File, op *Operation, svc *Service, types map[string]*Type) {
	notes := []string{op.Name + " sends " + requestLine(op) + "."}
	if op.Retry.LongPolling {
		notes = append(notes, "It is a long-polling operation: when the retry quota cannot pay for a retry, it waits the backoff of the error's class before returning.")
	}
	if len(op.Errors)+len(op.StatusErrors) > 0 {
		notes = append(notes, "Modelled errors (match with errors.As): "+strings.Join(errorNames(op), ", ")+".")
	}
	if len(op.Body.Others) > 0 {
		notes = append(notes, "The request body is sent as "+op.Body.ContentType+"; the spec also accepts "+strings.Join(op.Body.Others, ", ")+".")
	}
	checks := inputChecks(op, types)
	if len(checks) > 0 {
		notes = append(notes, "An input missing a required member, or with an empty path parameter, is refused before sending (*runtime.InvalidParamsError).")
	}
	if len(checks) > 0 {
		emitValidate(f, op, checks)
	}
	if es := op.Stream; es != nil {
		emitStreamMethod(f, op, svc, notes, len(checks) > 0)
		if es.Only {
			emitPaginators(f, op, types)
			emitWaiters(f, op, types)
			return
		}
		notes = append(notes, "It returns the response as "+op.Output+"; "+es.Method+" returns its event stream instead.")
	}
	if n := serversNote(op); n != "" {
		notes = append(notes, n)
	}
	if op.OutputBody == OutputStreamField {
		notes = append(notes, "The output's Body streams the response: retries happen only before it is returned; a cut body of a GET whose server advertised Accept-Ranges resumes by itself (runtime.Stream). Close it.")
	}
	f.Add(docComment([]string{op.Summary, op.Doc}, notes, op.Source))
	body := requestStatements(op, svc, len(checks) > 0, false)
	dec := decoder(op, svc.Protocol.XMLResultWrapper)
	linked := op.Pagination != nil && op.Pagination.Style == PageLink && len(op.Pagination.NextLink) == 0
	if linked {
		// The Link-header paginator (emit_paginate.go) reads the header.
		dec = jen.Qual(runtimePath, "KeepHeader").Call(dec, jen.Lit("Link"), jen.Id("link"))
	}
	if op.OutputBody == OutputStreamField && len(op.ResponseHeaders) > 0 {
		// The declared headers are read into the output before it is
		// returned (runtime.Stream.DecodeHeaders), as decoder reads them.
		body = append(body,
			jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(openCall(op, svc)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("out").Op(":=").Op("&").Id(op.Output).Values(jen.Dict{jen.Id("Body"): jen.Id("s"), jen.Id("ResultMetadata"): jen.Id("s").Dot("Metadata").Call()}),
			jen.If(jen.Err().Op(":=").Id("s").Dot("DecodeHeaders").Call(dec), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("out"), jen.Nil()),
		)
	} else if op.OutputBody == OutputStreamField {
		body = append(body,
			jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(openCall(op, svc)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Op("&").Id(op.Output).Values(streamOutput(op)), jen.Nil()),
		)
	} else {
		// A JSON or XML body's bytes stay reachable in ResultMetadata.Body
		// (issue 19): the decoder keeps them there and call leaves them.
		// The call's error returns nil, else out: no generic helper
		// (issue 24: result[P] compiled one function per output type,
		// 1,165 in the GitHub client, and cost more than the branch).
		callName := "call"
		if callsJSON(op) {
			// The JSON decoder is built in callJSON, once for all operations.
			callName, dec = "callJSON", jsonTarget(op)
		}
		body = append(body,
			jen.Id("out").Op(":=").New(jen.Id(op.Output)),
			jen.If(jen.Err().Op(":=").Id("c").Dot(callName).CallFunc(func(g *jen.Group) {
				g.List(jen.Id("ctx"), jen.Op("&").Id("op"+op.Name), jen.Id("req"), jen.Id("opts"),
					jen.Op("&").Id("out").Dot("ResultMetadata"), dec)
				if len(svc.Auth) > 0 {
					g.Add(securityLit(op.Security))
				}
			}), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("out"), jen.Nil()))
	}
	params := []jen.Code{
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Id("Options")),
	}
	if linked {
		f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(op.Name).Params(params...).Params(jen.Op("*").Id(op.Output), jen.Error()).Block(
			jen.Return(jen.Id("c").Dot(linkedName(op)).Call(jen.Id("ctx"), jen.Id("in"), jen.Id("opts"), jen.Nil())))
		f.Line()
		f.Comment(linkedName(op) + " is " + op.Name + ", storing the response's Link header values in *link when link is not nil.")
		params = append(params[:2], jen.Id("opts").Index().Func().Params(jen.Op("*").Id("Options")), jen.Id("link").Op("*").Index().String())
	}
	name := op.Name
	if linked {
		name = linkedName(op)
	}
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(name).Params(params...).Params(jen.Op("*").Id(op.Output), jen.Error()).Block(body...)
	f.Line()
	emitPaginators(f, op, types)
	emitWaiters(f, op, types)
}

// emitStreamMethod writes the method returning an operation's server-sent
// events as an *openapi.EventStream of its event data type.
func emitStreamMethod(f *jen.File, op *Operation, svc *Service, notes []string, validate bool) {
	es := op.Stream
	data := typeExpr(es.Data)
	notes = append([]string{es.Method + " sends " + requestLine(op) + "."}, notes[1:]...)
	notes = append(notes, "It returns the response's server-sent events (text/event-stream), each event's data decoded as "+
		jenString(data)+"; the stream ends at its end or at an event whose data is "+quote(es.Sentinel)+
		". A stream cut by a transient failure reconnects with Last-Event-ID as another attempt of the call (runtime.Stream.Resume)"+
		map[bool]string{true: ".", false: " when Options.ResumeStreams allows it: the operation is not retry-safe."}[op.Retry.RetrySafe])
	if es.FlagField != "" {
		notes = append(notes, "It sends the request's "+es.FlagField+" as true.")
	}
	f.Add(docComment([]string{op.Summary, op.Doc}, notes, op.Source))
	body := requestStatements(op, svc, validate, true)
	body = append(body,
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(openCall(op, svc)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(openapiPath, "NewEventStream").Types(data.Clone()).Call(jen.Id("s"),
			jen.Qual(openapiPath, "EventStreamOptions").Values(jen.Dict{jen.Id("Sentinel"): jen.Lit(es.Sentinel)})), jen.Nil()),
	)
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(es.Method).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Id("Options")),
	).Params(jen.Op("*").Qual(openapiPath, "EventStream").Types(data.Clone()), jen.Error()).Block(body...)
	f.Line()
}

// openCall renders `c.open(ctx, &opX, req, opts[, security])`.
func openCall(op *Operation, svc *Service) *jen.Statement {
	return jen.Id("c").Dot("open").CallFunc(func(g *jen.Group) {
		g.List(jen.Id("ctx"), jen.Op("&").Id("op"+op.Name), jen.Id("req"), jen.Id("opts"))
		if len(svc.Auth) > 0 {
			g.Add(securityLit(op.Security))
		}
	})
}

// jenString renders a type expression as Go source ("[]byte", "Chunk").
func jenString(c *jen.Statement) string {
	return strings.TrimSpace(fmt.Sprintf("%#v", c))
}

// quote renders s as a Go string literal for a comment.
func quote(s string) string { return strconv.Quote(s) }

// requestStatements renders what every method of op does before sending:
// validate the input, default a nil input, fill the idempotency token, set
// the stream flag (to stream for the event-stream method, else off), encode
// the body and build req with its parameters.
func requestStatements(op *Operation, svc *Service, validate, stream bool) []jen.Code {
	var body []jen.Code
	if validate {
		body = append(body, jen.If(jen.Err().Op(":=").Id("validate"+op.Name).Call(jen.Id("in")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), invalidInput(op))))
	}
	body = append(body, jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Id("in").Op("=").Op("&").Id(op.Input).Values()))
	body = append(body, fillIdempotencyToken(op)...)
	body = append(body, setStreamFlag(op, stream)...)
	body = append(body, encodeBody(op)...)
	body = append(body, jen.Id("req").Op(":=").Op("&").Qual(runtimePath, "Request").Values(inlineDict(requestDict(op, svc))...))
	body = append(body, paramStatements(op)...)
	if op.ContentTypeField != "" && op.Body.Kind != BodyNone {
		ct := jen.Id("in").Dot(op.ContentTypeField)
		body = append(body, jen.If(ct.Clone().Op("!=").Nil()).Block(jen.Id("req").Dot("ContentType").Op("=").Op("*").Add(ct)))
	}
	return body
}

// setStreamFlag renders the statements that send the request body's
// "stream" flag as stream says, on a copy of the input: true for the
// event-stream method; false for the other one, when set.
func setStreamFlag(op *Operation, stream bool) []jen.Code {
	es := op.Stream
	if es == nil || es.FlagField == "" || es.Only && !stream {
		return nil
	}
	field := jen.Id("cp").Dot(es.FlagField)
	set := []jen.Code{jen.Id("cp").Op(":=").Op("*").Id("in")}
	switch {
	case es.FlagPtr:
		set = append(set, jen.Id("on").Op(":=").Lit(stream), field.Clone().Op("=").Op("&").Id("on"))
	default:
		set = append(set, field.Clone().Op("=").Lit(stream))
	}
	set = append(set, jen.Id("in").Op("=").Op("&").Id("cp"))
	if stream {
		return append([]jen.Code{jen.Comment(es.FlagField + " asks for the event stream this method reads.")}, set...)
	}
	on := jen.Id("in").Dot(es.FlagField)
	if es.FlagPtr {
		on = on.Op("!=").Nil().Op("&&").Op("*").Id("in").Dot(es.FlagField)
	}
	return []jen.Code{
		jen.Comment(es.FlagField + " would ask for an event stream, which " + es.Method + " reads: this method sends it false."),
		jen.If(on).Block(set...),
	}
}

// fillIdempotencyToken renders the statements that put a fresh UUID into
// an empty idempotency token field of a copy of the input, so the caller's
// input is never changed and every attempt sends the same token.
func fillIdempotencyToken(op *Operation) []jen.Code {
	f := op.IdempotencyTokenGo
	if f == "" {
		return nil
	}
	field := jen.Id("in").Dot(f)
	empty := field.Clone().Op("==").Lit("")
	set := []jen.Code{jen.Id("cp").Op(":=").Op("*").Id("in"), jen.Id("cp").Dot(f).Op("=").Qual(runtimePath, "NewUUID").Call()}
	if op.IdempotencyTokenPtr {
		empty = field.Clone().Op("==").Nil().Op("||").Op("*").Add(field.Clone()).Op("==").Lit("")
		set = []jen.Code{jen.Id("token").Op(":=").Qual(runtimePath, "NewUUID").Call(), jen.Id("cp").Op(":=").Op("*").Id("in"),
			jen.Id("cp").Dot(f).Op("=").Op("&").Id("token")}
	}
	set = append(set, jen.Id("in").Op("=").Op("&").Id("cp"))
	return []jen.Code{
		jen.Comment(f + " is the idempotency token: a fresh UUID when empty, set on a copy of the input."),
		jen.If(empty).Block(set...),
	}
}

// requestLine renders the operation's request as its doc comment names it:
// method, path and fixed query ("GET /?Action=DescribeInstances"), then the
// fixed headers ("POST / with X-Amz-Target: DynamoDB_20120810.GetItem").
func requestLine(op *Operation) string {
	line := op.Method + " " + op.Path
	sep := "?"
	for _, f := range op.Flags {
		line += sep + f
		sep = "&"
	}
	for _, q := range op.Query {
		line += sep + q.Name + "=" + q.Value
		sep = "&"
	}
	for i, h := range op.Headers {
		line += map[bool]string{true: " with ", false: ", "}[i == 0] + h.Name + ": " + h.Value
	}
	return line
}

// errorNames lists the operation's error types, code-keyed first.
func errorNames(op *Operation) []string {
	names := append([]string(nil), op.Errors...)
	for _, s := range op.StatusErrors {
		if !strings.Contains(strings.Join(names, ","), s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// bodySource is the value the body is encoded from: the input itself or
// its Body field.
func bodySource(op *Operation) *jen.Statement {
	if op.Body.Field != "" {
		return jen.Id("in").Dot(op.Body.Field)
	}
	return jen.Id("in")
}

// encodeBody renders the statements that encode the request body into
// `body` (and, for multipart, its content type into `ct`).
func encodeBody(op *Operation) []jen.Code {
	var call *jen.Statement
	lhs := jen.List(jen.Id("body"), jen.Err())
	switch op.Body.Kind {
	case BodyJSON:
		if op.Body.Field == "" {
			call = jen.Qual("encoding/json", "Marshal").Call(jen.Id("in"))
		} else {
			call = jen.Qual(openapiPath, "JSONBody").Call(bodySource(op))
		}
	case BodyXML:
		if op.Body.AWSQueryAction != "" {
			call = jen.Qual(openapiPath, "AWSQueryBody").Call(bodySource(op), jen.Lit(op.Body.AWSQueryAction), jen.Lit(op.Body.AWSQueryVersion))
			break
		}
		call = jen.Qual(openapiPath, "XMLBody").Call(bodySource(op), jen.Lit(op.Body.XMLRoot), jen.Lit(op.Body.XMLNamespace))
	case BodyForm:
		enc := jen.Nil()
		if len(op.Body.Encoding) > 0 {
			enc = jen.Id("encoding" + op.Name)
		}
		call = jen.Qual(openapiPath, "FormBody").Call(bodySource(op), enc)
	case BodyMultipart:
		lhs = jen.List(jen.Id("body"), jen.Id("ct"), jen.Err())
		if op.Body.Field != "" { // the caller's parts (a schema without properties)
			call = jen.Qual(openapiPath, "MultipartBody").Call(bodySource(op).Op("..."))
			break
		}
		encoder := "MultipartBody"
		if op.Body.Streamed {
			encoder = "MultipartReader"
		}
		call = jen.Qual(openapiPath, encoder).CallFunc(func(g *jen.Group) {
			for _, p := range op.Body.Parts {
				d := jen.Dict{jen.Id("Name"): jen.Lit(p.Name), jen.Id("Value"): jen.Id("in").Dot(p.Field)}
				if e, ok := op.Body.Encoding[p.Name]; ok {
					d[jen.Id("Encoding")] = jen.Qual(openapiPath, "Encoding").Values(encodingDict(e))
				}
				g.Line().Qual(openapiPath, "Part").Values(d)
			}
			if len(op.Body.Parts) > 0 {
				g.Line()
			}
		})
	default:
		return nil
	}
	return []jen.Code{
		lhs.Op(":=").Add(call),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), invalidInput(op))),
	}
}

// invalidInput renders `c.rt.InvalidInput(&opX, err)`: an error found
// before the first attempt (validation, encoding the body), wrapped in the
// *runtime.OperationError every other failure of the call gets.
func invalidInput(op *Operation) *jen.Statement {
	return jen.Id("c").Dot("rt").Dot("InvalidInput").Call(jen.Op("&").Id("op"+op.Name), jen.Err())
}

// emitFormEncoding writes `var encodingX = map[string]openapi.Encoding{…}`,
// the Encoding Object of a form body, when the spec gives one.
func emitFormEncoding(f *jen.File, op *Operation) {
	if op.Body.Kind != BodyForm || len(op.Body.Encoding) == 0 {
		return
	}
	d := jen.Dict{}
	for name, e := range op.Body.Encoding {
		d[jen.Lit(name)] = jen.Values(encodingLine(e)...) // one line per property (issue 24)
	}
	f.Comment("encoding" + op.Name + " is the Encoding Object of " + op.Name + "'s form body, by property.")
	f.Var().Id("encoding"+op.Name).Op("=").Map(jen.String()).Qual(openapiPath, "Encoding").Values(d)
	f.Line()
}

// encodingLine renders an openapi.Encoding literal's fields to be written
// on one line, in the struct's order.
func encodingLine(e Encoding) []jen.Code {
	var out []jen.Code
	if e.ContentType != "" {
		out = append(out, field("ContentType", jen.Lit(e.ContentType)))
	}
	if len(e.Headers) > 0 {
		var h []jen.Code
		for _, k := range slices.Sorted(maps.Keys(e.Headers)) {
			h = append(h, jen.Lit(k).Op(":").Lit(e.Headers[k]))
		}
		out = append(out, field("Headers", jen.Map(jen.String()).String().Values(h...)))
	}
	if e.Style != "" {
		out = append(out, field("Style", jen.Lit(e.Style)))
	}
	if e.Explode {
		out = append(out, field("Explode", jen.True()))
	}
	return out
}

// encodingDict renders an openapi.Encoding literal's fields.
func encodingDict(e Encoding) jen.Dict {
	d := jen.Dict{}
	if e.ContentType != "" {
		d[jen.Id("ContentType")] = jen.Lit(e.ContentType)
	}
	if len(e.Headers) > 0 {
		h := jen.Dict{}
		for k, v := range e.Headers {
			h[jen.Lit(k)] = jen.Lit(v)
		}
		d[jen.Id("Headers")] = jen.Map(jen.String()).String().Values(h)
	}
	if e.Style != "" {
		d[jen.Id("Style")] = jen.Lit(e.Style)
	}
	if e.Explode {
		d[jen.Id("Explode")] = jen.True()
	}
	return d
}

// inlineDict renders d's entries as keyed elements on one line, sorted by
// key as jen.Dict sorts them (a request literal was one line per field:
// four lines per operation, issue 24).
func inlineDict(d jen.Dict) []jen.Code {
	keys := make([]string, 0, len(d))
	byKey := map[string]jen.Code{}
	for k, v := range d {
		ks := fmt.Sprintf("%#v", k)
		keys = append(keys, ks)
		byKey[ks] = jen.Add(k).Op(":").Add(v)
	}
	slices.Sort(keys)
	out := make([]jen.Code, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out
}

// requestDict renders the runtime.Request literal's fields.
func requestDict(op *Operation, svc *Service) jen.Dict {
	req := jen.Dict{
		jen.Id("Method"): jen.Lit(op.Method),
		jen.Id("Path"):   pathExpr(op),
	}
	switch op.Body.Kind {
	case BodyJSON:
		ct := op.Body.ContentType
		if ct == "application/json" {
			ct = svc.Protocol.JSONContentType
		}
		req[jen.Id("Body")] = jen.Id("body")
		req[jen.Id("ContentType")] = jen.Lit(ct)
	case BodyForm, BodyXML:
		req[jen.Id("Body")] = jen.Id("body")
		req[jen.Id("ContentType")] = jen.Lit(op.Body.ContentType)
	case BodyMultipart:
		if op.Body.Streamed {
			req[jen.Id("BodyReader")] = jen.Id("body")
		} else {
			req[jen.Id("Body")] = jen.Id("body")
		}
		req[jen.Id("ContentType")] = jen.Id("ct")
	case BodyRaw:
		req[jen.Id("BodyReader")] = bodySource(op)
		req[jen.Id("ContentType")] = jen.Lit(op.Body.ContentType)
	}
	if hasParamIn(op, "header", "cookie", "headerPrefix") {
		// Fixed headers live in the operation (runtime.Operation.FixedHeaders):
		// a call builds a header map only for its header parameters.
		req[jen.Id("Header")] = jen.Qual("net/http", "Header").Values()
	}
	if len(op.Query) > 0 || hasParamIn(op, "query") {
		q := jen.Dict{}
		for _, fq := range op.Query {
			// Spec text: a U+FDD0 in it is data, quoted as the runtime's
			// encoding expects (openapi.QuoteSeparatorMarks).
			q[jen.Lit(openapi.QuoteSeparatorMarks(fq.Name))] = jen.Values(jen.Lit(openapi.QuoteSeparatorMarks(fq.Value)))
		}
		req[jen.Id("Query")] = jen.Qual("net/url", "Values").Values(q)
	}
	return req
}

func hasParamIn(op *Operation, in ...string) bool {
	for _, p := range op.Params {
		for _, l := range in {
			if p.In == l {
				return true
			}
		}
	}
	return false
}

// pathExpr renders the request path: a literal, or literal pieces joined
// with openapi.PathParam calls for each "{name}" of the template. A
// placeholder no path parameter fills stays in the path as written.
func pathExpr(op *Operation) *jen.Statement {
	byName := map[string]Param{}
	for _, p := range op.Params {
		if p.In == "path" {
			byName[p.Name] = p
		}
	}
	var parts []*jen.Statement
	lit := ""
	for _, part := range openapi.SplitTemplate(op.Path) {
		p, ok := byName[part.Name]
		if !ok {
			lit += part.Text // literal text, or a placeholder no parameter fills
			continue
		}
		if lit != "" {
			parts = append(parts, jen.Lit(lit))
		}
		lit = ""
		parts = append(parts, jen.Qual(openapiPath, "PathParam").Call(jen.Lit(p.Name), jen.Id("in").Dot(p.Field), jen.Lit(p.Style), jen.Lit(p.Explode)))
	}
	if len(op.Flags) > 0 {
		// Bare query flags ride on the path; the runtime appends the rest of
		// the query after them.
		flags := make([]string, len(op.Flags))
		for i, f := range op.Flags {
			flags[i] = url.QueryEscape(f)
		}
		lit += "?" + strings.Join(flags, "&")
	}
	if lit != "" || len(parts) == 0 {
		parts = append(parts, jen.Lit(lit))
	}
	expr := parts[0]
	for _, p := range parts[1:] {
		expr = expr.Op("+").Add(p)
	}
	return expr
}

// streamOutput is the output of a streamed response: Body, ResultMetadata
// and the prefix-header maps (openapi.HeaderMap).
func streamOutput(op *Operation) jen.Dict {
	d := jen.Dict{jen.Id("Body"): jen.Id("s"), jen.Id("ResultMetadata"): jen.Id("s").Dot("Metadata").Call()}
	for _, p := range op.OutputHeaderMaps {
		d[jen.Id(p.Field)] = jen.Qual(openapiPath, "HeaderMap").Call(jen.Id("s").Dot("Metadata").Call().Dot("Header"), jen.Lit(p.Name))
	}
	return d
}

// paramStatements renders one runtime call per query, header and cookie
// parameter.
func paramStatements(op *Operation) []jen.Code {
	var out []jen.Code
	for _, p := range op.Params {
		v := jen.Id("in").Dot(p.Field)
		switch p.In {
		case "query":
			out = append(out, jen.Qual(openapiPath, "AppendQuery").Call(jen.Id("req").Dot("Query"), jen.Lit(p.Name), v, jen.Lit(p.Style), jen.Lit(p.Explode)))
		case "header":
			if p.TimeFormat != "" {
				out = append(out, jen.Qual(openapiPath, "SetHeaderTimestamp").Call(jen.Id("req").Dot("Header"), jen.Lit(p.Name), v, jen.Lit(p.TimeFormat)))
				continue
			}
			out = append(out, jen.Qual(openapiPath, "SetHeader").Call(jen.Id("req").Dot("Header"), jen.Lit(p.Name), v, jen.Lit(p.Explode)))
		case "headerPrefix":
			out = append(out, jen.Qual(openapiPath, "SetHeaderMap").Call(jen.Id("req").Dot("Header"), jen.Lit(p.Name), v))
		case "cookie":
			out = append(out, jen.Qual(openapiPath, "AddCookie").Call(jen.Id("req").Dot("Header"), jen.Lit(p.Name), v, jen.Lit(p.Explode)))
		}
	}
	return out
}

// decoder renders the 2xx response decoder: the declared response headers
// into their output fields (openapi.HeaderInt…), then the body.
func decoder(op *Operation, resultWrapper bool) jen.Code {
	body := bodyDecoder(op, resultWrapper)
	if len(op.ResponseHeaders)+len(op.OutputHeaderMaps) == 0 {
		return body
	}
	return jen.Func().Params(jen.Id("r").Op("*").Qual("net/http", "Response")).Error().BlockFunc(func(g *jen.Group) {
		for _, h := range op.ResponseHeaders {
			g.If(jen.Err().Op(":=").Qual(openapiPath, h.Reader).Call(jen.Id("r").Dot("Header"), jen.Lit(h.Name), jen.Op("&").Id("out").Dot(h.Field)),
				jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		}
		for _, p := range op.OutputHeaderMaps {
			g.Id("out").Dot(p.Field).Op("=").Qual(openapiPath, "HeaderMap").Call(jen.Id("r").Dot("Header"), jen.Lit(p.Name))
		}
		if op.OutputBody == OutputNone || op.OutputBody == OutputStreamField {
			g.Return(jen.Nil()) // a streamed body is handed over unread
			return
		}
		g.Return(jen.Add(body).Call(jen.Id("r")))
	})
}

// bodyDecoder renders the 2xx body decoder.
func bodyDecoder(op *Operation, resultWrapper bool) jen.Code {
	switch op.OutputBody {
	case OutputJSONField:
		return jen.Qual(runtimePath, "DecodeJSONKeep").Call(jen.Op("&").Id("out").Dot("Body"), rawBody())
	case OutputRawField:
		return jen.Qual(runtimePath, "DecodeBytes").Call(jen.Op("&").Id("out").Dot("Body"))
	case OutputStreamField:
		return jen.Nil() // handed over unread: emitMethod calls c.open
	case OutputNone:
		return jen.Nil()
	case OutputXML:
		if resultWrapper {
			return jen.Qual(openapiPath, "DecodeXMLResult").Call(jen.Id("out"), rawBody())
		}
		if op.ErrorDocument && op.OutputPayload != "" {
			return jen.Qual(openapiPath, "DecodeAWSXMLPayload").Call(jen.Id("out"), rawBody(), jen.Lit(op.OutputXMLRoot),
				jen.Lit(op.OutputPayloadElement), jen.Op("&").Id("out").Dot(op.OutputPayload))
		}
		if op.ErrorDocument {
			return jen.Qual(openapiPath, "DecodeAWSXML").Call(jen.Id("out"), rawBody(), jen.Lit(op.OutputXMLRoot))
		}
		if op.OutputXMLRoot != "" {
			return jen.Qual(openapiPath, "DecodeXMLNamed").Call(jen.Id("out"), rawBody(), jen.Lit(op.OutputXMLRoot))
		}
		return jen.Qual(openapiPath, "DecodeXML").Call(jen.Id("out"), rawBody())
	}
	return jen.Qual(runtimePath, "DecodeJSONKeep").Call(jen.Id("out"), rawBody())
}

// callsJSON reports whether op's method sends through the generated
// callJSON: its 2xx body is JSON decoded into the output or its Body field,
// with no response header to read and no Link header to keep.
func callsJSON(op *Operation) bool {
	linked := op.Pagination != nil && op.Pagination.Style == PageLink && len(op.Pagination.NextLink) == 0
	return (op.OutputBody == OutputSelf || op.OutputBody == OutputJSONField) && len(op.ResponseHeaders) == 0 && !linked &&
		(op.Stream == nil || !op.Stream.Only)
}

// jsonTarget renders what op's JSON body decodes into: out, or &out.Body.
func jsonTarget(op *Operation) *jen.Statement {
	if op.OutputBody == OutputJSONField {
		return jen.Op("&").Id("out").Dot("Body")
	}
	return jen.Id("out")
}

// rawBody renders &out.ResultMetadata.Body, where a decoder keeps the bytes
// of the body it decodes (the generated call leaves them there).
func rawBody() *jen.Statement {
	return jen.Op("&").Id("out").Dot("ResultMetadata").Dot("Body")
}

// serversNote says, for an operation with servers of its own (path item or
// operation servers), how a call reaches them: runtime.Options.Endpoint,
// checked against runtime.Operation.Servers. "" when it has none.
func serversNote(op *Operation) string {
	if len(op.Servers) == 0 {
		return ""
	}
	names := make([]string, len(op.Servers))
	for i, s := range op.Servers {
		names[i] = s.Name + "Default"
	}
	return "The spec declares servers of its own for " + op.Name + " (" + strings.Join(names, ", ") +
		"): it is sent to the client's endpoint unless a call's Options.Endpoint names one of them (only those, or the client's endpoint, are accepted)."
}
