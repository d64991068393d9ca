package generator

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitServers writes DefaultServerURL (the first https root server, else
// the first, variables at their defaults), ServerURL(vars) for the first
// root server, and for every server of the spec — root, path item and
// operation — its template and default URL as constants, its variables'
// enum values as constants and a typed URL builder (emitServer).
func emitServers(f *jen.File, svc *Service) {
	for _, op := range svc.Operations {
		for _, s := range op.Servers {
			emitServer(f, s, "a server of "+op.Name+" (per path or operation)")
		}
	}
	if len(svc.Servers) == 0 {
		return
	}
	for _, s := range svc.Servers {
		emitServer(f, s, "a server of the spec")
	}
	def := svc.Servers[0]
	for _, s := range svc.Servers {
		if strings.HasPrefix(strings.ToLower(s.URL), "https://") {
			def = s
			break
		}
	}
	f.Add(docComment([]string{def.Doc}, []string{"DefaultServerURL is " + def.Name + "Default, the spec's first https server (else its first server) with its variables at their defaults; pass it (or another endpoint) to New."}, def.Source))
	f.Const().Id("DefaultServerURL").Op("=").Lit(expandDefaults(def))
	f.Line()
	s := svc.Servers[0]
	if len(s.Defaults) == 0 {
		return
	}
	defaults := jen.Dict{}
	names := make([]string, 0, len(s.Defaults))
	for n, v := range s.Defaults {
		defaults[jen.Lit(n)] = jen.Lit(v)
		names = append(names, n+": "+strconv.Quote(v))
	}
	sort.Strings(names)
	for _, l := range commentLines("ServerURL returns the spec's first server URL, " + strconv.Quote(s.URL) +
		", with its variables replaced by vars; a variable missing from vars (or empty) takes its default: " +
		strings.Join(names, ", ") + ". A value that would leave its place in the URL keeps its placeholder (openapi.ExpandServerURL); " + s.Name + "URL is its typed form, which checks enums and places and returns an error.") {
		f.Comment(l)
	}
	f.Func().Id("ServerURL").Params(jen.Id("vars").Map(jen.String()).String()).String().Block(
		jen.Return(jen.Qual(openapiPath, "ExpandServerURL").Call(jen.Lit(s.URL), jen.Id("vars"), jen.Map(jen.String()).String().Values(defaults))),
	)
	f.Line()
}

// emitServer writes one server's constants (<Name>Template, <Name>Default,
// one per enum value of each variable) and, when it has variables, its
// <Name>Vars struct and <Name>URL builder (openapi.ServerURL: defaults for
// empty values, enums checked).
func emitServer(f *jen.File, s Server, what string) {
	f.Add(docComment([]string{s.Doc}, []string{s.Name + "Template is the URL template of " + what + "."}, s.Source))
	f.Const().Id(s.Name + "Template").Op("=").Lit(s.URL)
	f.Line()
	f.Comment(s.Name + "Default is " + s.Name + "Template with its variables at their defaults.")
	f.Const().Id(s.Name + "Default").Op("=").Lit(expandDefaults(s))
	f.Line()
	if len(s.Vars) == 0 {
		return
	}
	var consts []jen.Code
	fields := []jen.Code{}
	vals, defaults, enums := jen.Dict{}, jen.Dict{}, jen.Dict{}
	fieldNames, constNames := namespace{}, namespace{} // values like "-" and "." share a Go name
	for i, v := range s.Vars {
		field, _ := fieldNames.claim(goName(v.Name, false))
		doc := "the server variable " + strconv.Quote(v.Name) + "; \"\" takes its default, " + strconv.Quote(v.Default) + "."
		if len(v.Enum) > 0 {
			doc += " One of " + s.Name + field + "*."
			var lits []jen.Code
			for _, e := range v.Enum {
				c := s.Name + field + goName(e, false)
				if e != "" && e[0] >= '0' && e[0] <= '9' {
					c = s.Name + field + strings.TrimPrefix(goName(e, false), "N") // the prefix makes it a name
				}
				c, _ = constNames.claim(c)
				consts = append(consts, jen.Comment(c+" is a value of "+s.Name+"Vars."+field+"."), jen.Id(c).Op("=").Lit(e))
				lits = append(lits, jen.Lit(e))
			}
			enums[jen.Lit(v.Name)] = jen.Values(lits...)
		}
		if v.Doc != "" {
			doc += "\n\n" + v.Doc
		}
		var st jen.Statement
		if i > 0 {
			st.Line()
		}
		for _, l := range commentLines(field + " is " + doc) {
			st.Comment(l).Line()
		}
		st.Id(field).String()
		fields = append(fields, &st)
		vals[jen.Lit(v.Name)] = jen.Id("v").Dot(field)
		defaults[jen.Lit(v.Name)] = jen.Lit(v.Default)
	}
	if len(consts) > 0 {
		f.Const().Defs(consts...)
		f.Line()
	}
	f.Comment(s.Name + "Vars are the variables of " + s.Name + "Template.")
	f.Type().Id(s.Name + "Vars").Struct(fields...)
	f.Line()
	for _, l := range commentLines(s.Name + "URL returns " + s.Name + "Template with its variables from v (an empty one takes its default); a value outside its variable's enum, or one that would leave its place in the URL (a host or port holding / ? # @ :, a port not 1-65535), is an error naming the variable; a path value is percent-encoded (openapi.ServerURL).") {
		f.Comment(l)
	}
	enumMap := jen.Nil()
	if len(enums) > 0 {
		enumMap = jen.Map(jen.String()).Index().String().Values(enums)
	}
	f.Func().Id(s.Name+"URL").Params(jen.Id("v").Id(s.Name+"Vars")).Params(jen.String(), jen.Error()).Block(
		jen.Return(jen.Qual(openapiPath, "ServerURL").Call(jen.Id(s.Name+"Template"),
			jen.Map(jen.String()).String().Values(vals), jen.Map(jen.String()).String().Values(defaults), enumMap)),
	)
	f.Line()
}
