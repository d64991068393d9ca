package generator

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// emitErrors writes errors.go: one error type per modelled error shape,
// matchable with errors.As.
func emitErrors(f *jen.File, svc *Service) {
	for _, e := range svc.Errors {
		f.Add(docComment([]string{e.Doc}, append([]string{errorSentence(e)}, hiddenMetadata(e)...), e.Source))
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
		if t := (&Type{Name: e.Name, Fields: e.Fields}); len(members(t)) > 0 {
			emitMemberMethods(f, t) // members no struct tag can hold
			f.Line()
		}
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

// hiddenMetadata returns a paragraph for an error shape whose own fields
// (the body's members "code", "message"…) have the Go name of a
// runtime.ErrorMetadata field and so hide the promoted one (legal Go, the
// outer field wins): it says so and where the response's metadata stays.
// None when no field hides one.
func hiddenMetadata(e *ErrorShape) []string {
	meta := map[string]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[runtime.ErrorMetadata]()) {
		meta[f.Name] = true
	}
	var names, members []string
	for _, f := range e.Fields {
		if meta[f.Name] {
			names, members = append(names, f.Name), append(members, strconv.Quote(f.JSONName))
		}
	}
	if len(names) == 0 {
		return nil
	}
	and := func(s []string) string {
		if len(s) == 1 {
			return s[0]
		}
		return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	}
	verb := "field " + and(names) + " is the body's member " + and(members) + ": it hides the promoted runtime.ErrorMetadata field of the same name."
	if len(names) > 1 {
		verb = "fields " + and(names) + " are the body's members " + and(members) + ": they hide the promoted runtime.ErrorMetadata fields of the same names."
	}
	return []string{"Its " + verb + " The metadata the runtime read from the response stays in e.ErrorMetadata; ErrorCode() and ErrorMessage() return its code (from the service's error-code header or field, normalised) and message."}
}
