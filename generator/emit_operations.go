package generator

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitOperations writes operations.go: per operation its runtime.Operation,
// its error constructor and its Client method.
func emitOperations(f *jen.File, svc *Service) {
	for _, op := range svc.Operations {
		emitOperationVar(f, op)
		if len(op.Errors) > 0 {
			emitNewError(f, op, svc)
		}
		emitMethod(f, op, svc)
	}
}

// emitOperationVar writes `var opX = runtime.Operation{…}`.
func emitOperationVar(f *jen.File, op *Operation) {
	d := jen.Dict{jen.Id("Name"): jen.Lit(op.Name)}
	if op.Retry.RetrySafe {
		d[jen.Id("RetrySafe")] = jen.True()
	}
	if op.Retry.LongPolling {
		d[jen.Id("LongPolling")] = jen.True()
	}
	setStrings(d, "TransientCodes", op.Retry.TransientCodes)
	setStrings(d, "ThrottlingCodes", op.Retry.ThrottlingCodes)
	setStrings(d, "NonRetryableCodes", op.Retry.NonRetryableCodes)
	if len(op.Errors) > 0 {
		d[jen.Id("NewError")] = jen.Id("new" + op.Name + "Error")
	}
	f.Comment("op" + op.Name + " describes " + op.Name + " to the runtime.")
	f.Var().Id("op"+op.Name).Op("=").Qual(runtimePath, "Operation").Values(d)
	f.Line()
}

// emitNewError writes the constructor of the operation's modelled errors.
func emitNewError(f *jen.File, op *Operation, svc *Service) {
	codes := map[string]string{}
	for _, e := range svc.Errors {
		codes[e.Name] = e.Code
	}
	f.Comment("new" + op.Name + "Error returns an empty modelled error of " + op.Name + " for code, or nil.")
	f.Func().Id("new"+op.Name+"Error").Params(jen.Id("code").String()).Qual(runtimePath, "ModeledError").Block(
		jen.Switch(jen.Id("code")).BlockFunc(func(g *jen.Group) {
			for _, name := range op.Errors {
				g.Case(jen.Lit(codes[name])).Block(jen.Return(jen.Op("&").Id(name).Values()))
			}
		}),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// emitMethod writes the Client method of an operation.
func emitMethod(f *jen.File, op *Operation, svc *Service) {
	first := op.Name + " calls the " + op.Name + " operation (" + op.Method + " " + op.Path + ")."
	f.Add(docComment(first, op.Doc))
	if len(op.Errors) > 0 {
		f.Comment("")
		f.Comment("Modelled errors (match with errors.As): " + strings.Join(op.Errors, ", ") + ".")
	}
	req := jen.Dict{
		jen.Id("Method"): jen.Lit(op.Method),
		jen.Id("Path"):   jen.Lit(op.Path),
		jen.Id("Body"):   jen.Id("body"),
	}
	req[jen.Id("ContentType")] = jen.Lit(svc.Protocol.JSONContentType)
	if len(op.Headers) > 0 {
		h := jen.Dict{}
		for _, fh := range op.Headers {
			h[jen.Lit(fh.Name)] = jen.Values(jen.Lit(fh.Value))
		}
		req[jen.Id("Header")] = jen.Qual("net/http", "Header").Values(h)
	}
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(op.Name).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Id("Options")),
	).Params(jen.Op("*").Id(op.Output), jen.Error()).Block(
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Id("in").Op("=").Op("&").Id(op.Input).Values()),
		jen.List(jen.Id("body"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("req").Op(":=").Op("&").Qual(runtimePath, "Request").Values(req),
		jen.Id("o").Op(":=").Id("c").Dot("options"),
		applyOpts(),
		jen.Id("out").Op(":=").New(jen.Id(op.Output)),
		jen.List(jen.Id("md"), jen.Err()).Op(":=").Id("c").Dot("rt").Dot("Do").Call(
			jen.Id("ctx"), jen.Op("&").Id("op"+op.Name), jen.Id("req"), jen.Op("&").Id("o").Dot("Options"), jen.Id("decodeJSON").Call(jen.Id("out"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("out").Dot("ResultMetadata").Op("=").Id("md"),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
	f.Line()
}
