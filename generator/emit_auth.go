package generator

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitAuth writes one client option per security scheme. Each composes
// Options.BeforeAttempt (runtime.ChainBeforeAttempt): a hook set before the
// option runs first, then the credentials are added.
func emitAuth(f *jen.File, svc *Service) {
	for _, a := range svc.Auth {
		var params []jen.Code
		var hook *jen.Statement
		var first string
		switch a.Kind {
		case "basic":
			params = []jen.Code{jen.List(jen.Id("user"), jen.Id("password")).String()}
			hook = jen.Qual(openapiPath, "BasicAuth").Call(jen.Id("user"), jen.Id("password"))
			first = a.Option + " sends HTTP basic credentials (Authorization: Basic, RFC 7617) on every attempt"
		case "bearer":
			params = []jen.Code{jen.Id("token").String()}
			hook = jen.Qual(openapiPath, "BearerToken").Call(jen.Id("token"))
			first = a.Option + " sends token as \"Authorization: Bearer TOKEN\" (RFC 6750) on every attempt"
		default:
			params = []jen.Code{jen.Id("key").String()}
			hook = jen.Qual(openapiPath, "APIKey").Call(jen.Lit(a.In), jen.Lit(a.Name), jen.Id("key"))
			first = a.Option + " sends key as the " + a.In + " " + strconv.Quote(a.Name) + " on every attempt"
		}
		f.Add(docComment([]string{a.Doc}, []string{first + " (security scheme " + strconv.Quote(a.Scheme) + "). It keeps a BeforeAttempt hook set before it (that hook runs first); other schemes, such as AWS SigV4, go through Options.BeforeAttempt."},
			pointer("components", "securitySchemes", a.Scheme)))
		f.Func().Id(a.Option).Params(params...).Func().Params(jen.Op("*").Id("Options")).Block(
			jen.Return(jen.Func().Params(jen.Id("o").Op("*").Id("Options")).Block(
				jen.Id("o").Dot("BeforeAttempt").Op("=").Qual(runtimePath, "ChainBeforeAttempt").Call(jen.Id("o").Dot("BeforeAttempt"), hook),
			)),
		)
		f.Line()
	}
}

// emitServers writes DefaultServerURL (the first server, variables at their
// defaults) and, when that server has variables, ServerURL(vars).
func emitServers(f *jen.File, svc *Service) {
	if len(svc.Servers) == 0 {
		return
	}
	s := svc.Servers[0]
	defaults := jen.Dict{}
	names := make([]string, 0, len(s.Defaults))
	for n, v := range s.Defaults {
		defaults[jen.Lit(n)] = jen.Lit(v)
		names = append(names, n+": "+strconv.Quote(v))
	}
	sort.Strings(names)
	f.Add(docComment([]string{s.Doc}, []string{"DefaultServerURL is the spec's first server with its variables at their defaults; pass it (or another endpoint) to New."}, "/servers/0"))
	f.Const().Id("DefaultServerURL").Op("=").Lit(expandDefaults(s))
	f.Line()
	if len(s.Defaults) == 0 {
		return
	}
	for _, l := range commentLines("ServerURL returns the spec's first server URL, " + strconv.Quote(s.URL) +
		", with its variables replaced by vars; a variable missing from vars (or empty) takes its default: " +
		strings.Join(names, ", ") + ".") {
		f.Comment(l)
	}
	f.Func().Id("ServerURL").Params(jen.Id("vars").Map(jen.String()).String()).String().Block(
		jen.Return(jen.Qual(openapiPath, "ExpandServerURL").Call(jen.Lit(s.URL), jen.Id("vars"), jen.Map(jen.String()).String().Values(defaults))),
	)
	f.Line()
}

// expandDefaults fills a server URL template with its variables' defaults.
func expandDefaults(s Server) string {
	out := s.URL
	for _, n := range sortedKeys(s.Defaults) {
		out = strings.ReplaceAll(out, "{"+n+"}", s.Defaults[n])
	}
	return out
}
