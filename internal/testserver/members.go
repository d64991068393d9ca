package testserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
)

// DiffMembers compares a JSON response body with typed, the value a client
// decoded from it, by encoding typed back to JSON (decode → re-marshal →
// compare), member by member at any depth: it returns one line per
// difference, sorted, "POINTER: sent X, re-marshalled Y" — a member
// missing or added ("absent"), null turned into a value or back, a leaf
// with another value (numbers compared as numbers), an array of another
// length. An empty result means the round trip is exact. It returns an
// error when body or typed's encoding is not JSON.
func DiffMembers(body []byte, typed any) ([]string, error) {
	var sent, got any
	if err := json.Unmarshal(body, &sent); err != nil {
		return nil, fmt.Errorf("response body: %w", err)
	}
	b, err := json.Marshal(typed)
	if err != nil {
		return nil, fmt.Errorf("re-marshalling %T: %w", typed, err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		return nil, fmt.Errorf("re-marshalled %T: %w", typed, err)
	}
	var out []string
	diffMembers("", sent, got, true, true, &out)
	sort.Strings(out)
	return out, nil
}

// diffMembers appends the differences between sent and got under ptr;
// hasSent and hasGot say whether each is present at all.
func diffMembers(ptr string, sent, got any, hasSent, hasGot bool, out *[]string) {
	show := func(v any, has bool) string {
		if !has {
			return "absent"
		}
		b, _ := json.Marshal(v)
		if len(b) > 60 {
			return string(b[:57]) + "..."
		}
		return string(b)
	}
	at := ptr
	if at == "" {
		at = "/"
	}
	if !hasSent || !hasGot {
		*out = append(*out, at+": sent "+show(sent, hasSent)+", re-marshalled "+show(got, hasGot))
		return
	}
	switch s := sent.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, at+": sent "+show(sent, true)+", re-marshalled "+show(got, true))
			return
		}
		for k, v := range s {
			gv, has := g[k]
			diffMembers(ptr+"/"+pointerEscaper.Replace(k), v, gv, true, has, out)
		}
		for k, gv := range g {
			if _, has := s[k]; !has {
				diffMembers(ptr+"/"+pointerEscaper.Replace(k), nil, gv, false, true, out)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(s) {
			*out = append(*out, at+": sent "+show(sent, true)+", re-marshalled "+show(got, true))
			return
		}
		for i := range s {
			diffMembers(ptr+"/"+strconv.Itoa(i), s[i], g[i], true, true, out)
		}
	default:
		if !reflect.DeepEqual(sent, got) {
			*out = append(*out, at+": sent "+show(sent, true)+", re-marshalled "+show(got, true))
		}
	}
}
