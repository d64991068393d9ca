package generator

import (
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/retrygen/retrygen/runtime/engine"
)

// emitErrors writes errors.go: one error type per modelled error shape,
// matchable with errors.As.
func emitErrors(f *jen.File, svc *Service) {
	for _, e := range svc.Errors {
		f.Add(docComment([]string{e.Doc}, []string{errorSentence(e)}, e.Source))
		fields := append([]jen.Code{
			jen.Qual(runtimePath, "ErrorMetadata").Tag(map[string]string{"json": "-"}),
		}, structFields(e.Fields, false, false)...)
		f.Type().Id(e.Name).Struct(fields...)
		f.Line()
		f.Comment("Error renders the error's metadata: \"api error CODE (HTTP STATUS, request ID ID): MESSAGE\".")
		f.Func().Params(jen.Id("e").Op("*").Id(e.Name)).Id("Error").Params().String().Block(
			jen.Return(jen.Id("e").Dot("ErrorMetadata").Dot("String").Call()),
		)
		f.Line()
	}
}

// errorSentence names an error shape: the code it matches and the class
// the runtime gives that code (runtime.Service.CodeClass), or that it is
// matched by HTTP status.
func errorSentence(e *ErrorShape) string {
	if e.Code == "" {
		return e.Name + " is a modelled error response, matched by HTTP status."
	}
	first := e.Name + " is the modelled error with code " + strconv.Quote(e.Code)
	switch e.Class {
	case engine.ClassTransient:
		return first + ": by its code it is a transient error, retried after the transient base delay."
	case engine.ClassThrottling:
		return first + ": by its code it is a throttling error, retried after the throttling base delay."
	}
	return first + ": its code alone does not make it retryable (the HTTP status may)."
}
