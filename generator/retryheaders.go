package generator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/retrygen/retrygen/runtime/openapi"
)

// sentRetryHeader is one header the runtime sends of its own on every
// attempt, as an x-retry setting names it.
type sentRetryHeader struct {
	name, ptr string
	// idempotency: the header carries the idempotency key, which a
	// request's own value supplies (Operation.IdempotencyHeader).
	idempotency bool
}

// clashSuffix ends every error of checkRetryHeaders: the runtime sets its
// headers on the attempt's header map after the request's own, so one of
// the two values never reaches the server.
const clashSuffix = ": each attempt would carry one of the two values"

// checkRetryHeaders refuses, with a located error naming both places, an
// x-retry header the runtime sends of its own (attemptHeader,
// invocationIdHeader, idempotencyKey.header at the root and per operation)
// that equals, in any letter case, a header the client already sends for
// another purpose (newuser4 G3: attemptHeader Authorization replaced the
// bearer token; idempotencyKey {header: X-Api-Key} sent the API key as a
// constant key on every call):
//
//   - another of those x-retry headers;
//   - a security scheme's header: Authorization for an http, oauth2 or
//     openIdConnect scheme, an apiKey scheme's in: header name;
//   - a header a request signer sets (openapi.IsSignerHeader: Authorization,
//     AWS SigV4's X-Amz-Date …), even with no scheme declaring it;
//   - Accept, which operations send their response media types in;
//   - a header parameter of an operation. For the idempotency key's header
//     an ordinary parameter is accepted: its input field is the caller's
//     key (the runtime sends a request's own value and makes one only when
//     it is empty); a parameter with one fixed value is refused, as it
//     would send the same key on every call.
//
// Names net/http does not send, or that the runtime sets itself, are
// refused where they are read (extReader.sentHeader).
func (b *builder) checkRetryHeaders() {
	xr := mapValue(b.root, "x-retry")
	var root []sentRetryHeader
	for _, k := range []string{"attemptHeader", "invocationIdHeader"} {
		if h := sentHeaderAt(mapValue(xr, k)); h != "" {
			root = append(root, sentRetryHeader{name: h, ptr: pointer("x-retry", k)})
		}
	}
	if h := rootIdempotencyHeader(b.root); h != "" {
		root = append(root, sentRetryHeader{name: h, ptr: pointer("x-retry", "idempotencyKey", "header"), idempotency: true})
	}
	for i, h := range root {
		if b.clashesWithClient(h) {
			continue
		}
		for _, o := range root[:i] {
			if strings.EqualFold(h.name, o.name) {
				b.d.errorf(h.ptr, "%q is also #%s"+clashSuffix, h.name, o.ptr)
				break
			}
		}
	}
	reported := map[[2]string]bool{} // {setting, parameter} pointers: a path-level parameter is every operation's
	b.eachOperation(func(path, method string, op *openapi3.Operation) {
		opPtr := pointer("paths", path, strings.ToLower(method))
		opNode := mapValue(mapValue(mapValue(b.root, "paths"), path), strings.ToLower(method))
		sent := slices.DeleteFunc(slices.Clone(root), func(h sentRetryHeader) bool { return h.idempotency })
		own := sentHeaderAt(mapValue(mapValue(mapValue(opNode, "x-retry"), "idempotencyKey"), "header"))
		switch {
		case own != "":
			h := sentRetryHeader{name: own, ptr: child(opPtr, "x-retry") + pointer("idempotencyKey", "header"), idempotency: true}
			clash := b.clashesWithClient(h)
			for _, o := range sent {
				if !clash && strings.EqualFold(h.name, o.name) {
					b.d.errorf(h.ptr, "%q is also #%s"+clashSuffix, h.name, o.ptr)
					clash = true
				}
			}
			sent = append(sent, h)
		case !slices.Contains(retrySafeMethods, strings.ToUpper(method)):
			for _, h := range root {
				if h.idempotency {
					sent = append(sent, h)
				}
			}
		}
		b.clashesWithParameters(sent, path, opPtr, op, reported)
	})
}

// clashesWithClient reports (and reports whether there was) a clash of h
// with a security scheme's header, a request signer's or Accept.
func (b *builder) clashesWithClient(h sentRetryHeader) bool {
	canon := http.CanonicalHeaderKey(h.name)
	if b.api.Components != nil {
		schemes := b.api.Components.SecuritySchemes
		for _, key := range sortedKeys(schemes) {
			s := schemes[key].Value
			if s == nil {
				continue
			}
			var name string
			switch s.Type {
			case "http", "oauth2", "openIdConnect":
				name = "Authorization"
			case "apiKey":
				if s.In == "header" {
					name = s.Name
				}
			}
			if name != "" && strings.EqualFold(name, canon) {
				b.d.errorf(h.ptr, "%q is also the header of security scheme #%s"+clashSuffix, h.name, pointer("components", "securitySchemes", key))
				return true
			}
		}
	}
	switch {
	case openapi.IsSignerHeader(canon):
		b.d.errorf(h.ptr, "%q is also a header a request signer sets on every attempt (Options.BeforeAttempt)"+clashSuffix, h.name)
		return true
	case canon == headerAccept:
		b.d.errorf(h.ptr, "%q is also the header an operation sends its response media types in"+clashSuffix, h.name)
		return true
	}
	return false
}

// clashesWithParameters reports each of sent that is also a header
// parameter of the operation at opPtr (path-level parameters included),
// once per setting and parameter (reported); see checkRetryHeaders for the
// idempotency key's.
func (b *builder) clashesWithParameters(sent []sentRetryHeader, path, opPtr string, op *openapi3.Operation, reported map[[2]string]bool) {
	check := func(params openapi3.Parameters, ptr string) {
		for i, pr := range params {
			if pr == nil || pr.Value == nil || pr.Value.In != "header" {
				continue
			}
			pptr := child(ptr, strconv.Itoa(i))
			for _, h := range sent {
				if !strings.EqualFold(h.name, pr.Value.Name) || reported[[2]string{h.ptr, pptr}] {
					continue
				}
				reported[[2]string{h.ptr, pptr}] = true
				_, fixed := fixedValue(pr.Value)
				switch {
				case fixed:
					b.d.errorf(h.ptr, "%q is also the header parameter #%s, which sends one fixed value"+clashSuffix, h.name, pptr)
				case !h.idempotency:
					b.d.errorf(h.ptr, "%q is also the header parameter #%s"+clashSuffix, h.name, pptr)
				}
			}
		}
	}
	check(b.api.Paths.Value(path).Parameters, pointer("paths", path, "parameters"))
	check(op.Parameters, child(opPtr, "parameters"))
}
