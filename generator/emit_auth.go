package generator

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitAuth writes one client option per security scheme. Each records its
// credential (openapi.Credentials.With); an operation sends the credentials
// its security requirement names (call, openapi.Credentials.Apply) and no
// others.
func emitAuth(f *jen.File, svc *Service) {
	for _, a := range svc.Auth {
		var params []jen.Code
		cred := jen.Dict{}
		var first string
		switch a.Kind {
		case "basic":
			params = []jen.Code{jen.List(jen.Id("user"), jen.Id("password")).String()}
			cred[jen.Id("Kind")] = jen.Qual(openapiPath, "CredentialBasic")
			cred[jen.Id("User")], cred[jen.Id("Password")] = jen.Id("user"), jen.Id("password")
			first = a.Option + " sends HTTP basic credentials (Authorization: Basic, RFC 7617)"
		case "bearer":
			params = []jen.Code{jen.Id("token").String()}
			cred[jen.Id("Kind")] = jen.Qual(openapiPath, "CredentialBearer")
			cred[jen.Id("Token")] = jen.Id("token")
			first = a.Option + " sends token as \"Authorization: Bearer TOKEN\" (RFC 6750)"
		default:
			params = []jen.Code{jen.Id("key").String()}
			cred[jen.Id("Kind")] = jen.Qual(openapiPath, "CredentialAPIKey")
			cred[jen.Id("In")], cred[jen.Id("Name")], cred[jen.Id("Token")] = jen.Lit(a.In), jen.Lit(a.Name), jen.Id("key")
			first = a.Option + " sends key as the " + a.In + " " + strconv.Quote(a.Name)
		}
		f.Add(docComment([]string{a.Doc}, []string{first + " (security scheme " + strconv.Quote(a.Scheme) + ") on every attempt of the operations whose security requirement names that scheme (their own, else the spec's root one), and never on others. Other schemes, such as AWS SigV4, go through Options.BeforeAttempt."},
			pointer("components", "securitySchemes", a.Scheme)))
		f.Func().Id(a.Option).Params(params...).Func().Params(jen.Op("*").Id("Options")).Block(
			jen.Return(jen.Func().Params(jen.Id("o").Op("*").Id("Options")).Block(
				jen.Id("o").Dot("credentials").Op("=").Id("o").Dot("credentials").Dot("With").Call(jen.Lit(a.Scheme), jen.Qual(openapiPath, "Credential").Values(cred)),
			)),
		)
		f.Line()
	}
}

// securityLit renders an operation's security requirement for call: nil,
// or [][]string{{"a"}, {"b", "c"}}.
func securityLit(sec [][]string) jen.Code {
	if sec == nil {
		return jen.Nil()
	}
	return jen.Index().Index().String().ValuesFunc(func(g *jen.Group) {
		for _, alt := range sec {
			g.ValuesFunc(func(g *jen.Group) {
				for _, s := range alt {
					g.Lit(s)
				}
			})
		}
	})
}

// expandDefaults fills a server URL template with its variables' defaults.
func expandDefaults(s Server) string {
	out := s.URL
	for _, n := range sortedKeys(s.Defaults) {
		out = strings.ReplaceAll(out, "{"+n+"}", s.Defaults[n])
	}
	return out
}
