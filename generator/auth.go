package generator

import (
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// authOptions turns components/securitySchemes into client options, in
// sorted scheme order: HTTP basic → WithBasicAuth(user, password); HTTP
// bearer, OAuth 2.0 and OpenID Connect → WithBearerToken(token) (the access
// token is obtained elsewhere); apiKey in a header, the query or a cookie →
// WithAPIKey(key). When two schemes would give the same option name, the
// later one is named after its scheme ("WithAccountAuth"). apiKey schemes
// carrying x-amazon-apigateway-authtype (AWS SigV4) and other schemes get
// no option, with a warning: sign through Options.BeforeAttempt.
func (b *builder) authOptions() []AuthOption {
	if b.api.Components == nil {
		return nil
	}
	var out []AuthOption
	var ptrs []string
	schemes := b.api.Components.SecuritySchemes
	for _, key := range sortedKeys(schemes) {
		ptr := pointer("components", "securitySchemes", key)
		s := schemes[key].Value
		if s == nil {
			b.d.warnf(ptr, "security scheme cannot be resolved; no option")
			continue
		}
		a := AuthOption{Scheme: key, Doc: s.Description}
		switch {
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			a.Kind, a.Option = "basic", "WithBasicAuth"
		case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"), s.Type == "oauth2", s.Type == "openIdConnect":
			a.Kind, a.Option = "bearer", "WithBearerToken"
		case s.Type == "apiKey" && s.Extensions["x-amazon-apigateway-authtype"] != nil:
			b.d.warnf(ptr, "%s authentication has no option; sign requests in Options.BeforeAttempt (e.g. with a SigV4 signer)", key)
			continue
		case s.Type == "apiKey" && s.In == "header" && !b.checkHeaderName(s.Name, ptr):
			continue
		case s.Type == "apiKey" && s.In == "cookie" && !b.checkCookieName(s.Name, ptr, "the scheme has no option"):
			continue
		case s.Type == "apiKey" && (s.In == "header" || s.In == "query" || s.In == "cookie"):
			a.Kind, a.Option, a.In, a.Name = "apiKey", "WithAPIKey", s.In, s.Name
		default:
			b.d.warnf(ptr, "security scheme type %q (scheme %q) has no option; authenticate in Options.BeforeAttempt", s.Type, s.Scheme)
			continue
		}
		out = append(out, a)
		ptrs = append(ptrs, ptr)
	}
	// A kind with one scheme keeps its generic option (WithBearerToken);
	// the schemes of a kind with several are each named after the scheme
	// (WithAdminApiKey, WithApiKey), so no option's name hides which
	// credential it is (trial F2). Scheme-named options are claimed first;
	// a generic name that would differ from one of them only by case is
	// named after its scheme too, with a warning.
	perKind := map[string]int{}
	for _, a := range out {
		perKind[a.Kind]++
	}
	folded := map[string]string{} // lower-case option → "Option (scheme S)"
	assign := func(i int, name string) {
		a := &out[i]
		a.Option = b.claim(name, ptrs[i])
		low := strings.ToLower(a.Option)
		if prev, ok := folded[low]; ok {
			b.d.warnf(ptrs[i], "option %s differs from %s only by case", a.Option, prev)
		}
		folded[low] = a.Option + " (scheme " + a.Scheme + ")"
	}
	for i := range out {
		if perKind[out[i].Kind] > 1 {
			assign(i, "With"+goName(out[i].Scheme, false))
		}
	}
	for i := range out {
		if perKind[out[i].Kind] > 1 {
			continue
		}
		name := out[i].Option
		if prev, ok := folded[strings.ToLower(name)]; ok {
			derived := "With" + goName(out[i].Scheme, false)
			b.d.warnf(ptrs[i], "option %s would differ from %s only by case; named %s", name, prev, derived)
			name = derived
		}
		assign(i, name)
	}
	return out
}

// servers returns the spec's root servers (OpenAPI 3.0 §4.7.5), named
// Server1, Server2… (serverList).
func (b *builder) servers() []Server {
	return b.serverList(b.api.Servers, "/servers", "Server")
}

// serverList returns servers, found at ptr, as the model's Servers named
// prefix1, prefix2…, their variables sorted by name with defaults and enums.
func (b *builder) serverList(servers openapi3.Servers, ptr, prefix string) []Server {
	var out []Server
	for i, s := range servers {
		if s == nil {
			continue
		}
		srv := Server{URL: s.URL, Doc: s.Description, Defaults: map[string]string{}, Source: child(ptr, strconv.Itoa(i)),
			Name: prefix + strconv.Itoa(len(out)+1)}
		for _, name := range sortedKeys(s.Variables) {
			v := s.Variables[name]
			if v == nil {
				continue
			}
			srv.Defaults[name] = v.Default
			srv.Vars = append(srv.Vars, ServerVar{Name: name, Default: v.Default, Doc: v.Description, Enum: v.Enum})
		}
		out = append(out, srv)
	}
	return out
}

// warnUnrequiredSchemes warns of each security scheme that has an option
// but that no operation's security requirement (nor the root's) names: its
// option sends nothing, since an operation sends only the credentials its
// requirement names.
func (b *builder) warnUnrequiredSchemes(svc *Service) {
	used := map[string]bool{}
	for _, op := range svc.Operations {
		for _, alt := range op.Security {
			for _, s := range alt {
				used[s] = true
			}
		}
	}
	for _, a := range svc.Auth {
		if !used[a.Scheme] {
			b.d.warnf(pointer("components", "securitySchemes", a.Scheme),
				"no operation's security requirement (nor the root's) names %s: %s sends nothing; add a security requirement to send it", a.Scheme, a.Option)
		}
	}
}
