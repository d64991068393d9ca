package generator

import (
	"strconv"

	"github.com/dave/jennifer/jen"
)

// emitErrors writes errors.go: one error type per modelled error shape,
// matchable with errors.As.
func emitErrors(f *jen.File, svc *Service) {
	for _, e := range svc.Errors {
		first := e.Name + " is the modelled error with code " + strconv.Quote(e.Code) + " (" + e.Class.String() + " by code)."
		if e.Code == "" {
			first = e.Name + " is a modelled error response, matched by HTTP status."
		}
		f.Add(docComment(first, e.Doc))
		fields := append([]jen.Code{
			jen.Qual(runtimePath, "ErrorMetadata").Tag(map[string]string{"json": "-"}),
		}, structFields(e.Fields, false)...)
		f.Type().Id(e.Name).Struct(fields...)
		f.Line()
		f.Comment("Error renders the error's metadata: \"api error CODE (HTTP STATUS, request ID ID): MESSAGE\".")
		f.Func().Params(jen.Id("e").Op("*").Id(e.Name)).Id("Error").Params().String().Block(
			jen.Return(jen.Id("e").Dot("ErrorMetadata").Dot("String").Call()),
		)
		f.Line()
	}
}
