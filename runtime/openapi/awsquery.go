package openapi

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AWSQueryBody encodes v (a pointer to a generated struct, or the struct)
// as an AWS query protocol request body (application/x-www-form-urlencoded),
// as aws-sdk-go-v2's aws/protocol/query encoder writes it: Action and
// Version, then each member by the name its xml struct tag gives (the
// spec's XML Object name), nested structures as Name.Member, flattened
// lists (an XML Object without wrapped: true) as Name.1, Name.2…, wrapped
// ones as Name.member.N, openapi.XMLFlatMap entries as Name.N.Name and
// Name.N.Value (SQS's attribute maps), openapi.XMLMap entries as
// Name.entry.N.key and .value, keys in order; strings as they are, booleans
// true/false, numbers in decimal, times as RFC 3339 in UTC, []byte in
// base64; an empty non-nil list as "Name=". Absent (nil) members are left
// out; pairs are sorted by name (url.Values.Encode), as the SDK's are. It
// returns an error naming a member of a type it cannot encode.
func AWSQueryBody(v any, action, version string) ([]byte, error) {
	q := url.Values{"Action": {action}, "Version": {version}}
	rv := reflect.ValueOf(v)
	if err := awsQueryValue(q, "", rv, 0); err != nil {
		return nil, err
	}
	return []byte(q.Encode()), nil
}

// flattenedMap marks openapi.XMLFlatMap for the query encoder.
func (XMLFlatMap[V]) flattenedMap() {}

// awsQueryValue adds v under name to q, depth levels below the input: past
// maxWalkDepth (a value that refers to itself, which json.Marshal refuses
// as a cycle) it returns an error naming the member instead of recursing
// until the stack overflows.
func awsQueryValue(q url.Values, name string, v reflect.Value, depth int) error {
	if depth > maxWalkDepth {
		return fmt.Errorf("openapi: AWS query member %.200s…: nested more than %d levels (a cycle?)", name, maxWalkDepth)
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil
	}
	if t, ok := v.Interface().(time.Time); ok {
		q.Set(name, t.UTC().Format("2006-01-02T15:04:05.999Z"))
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		q.Set(name, v.String())
	case reflect.Bool:
		q.Set(name, strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		q.Set(name, strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		q.Set(name, strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		q.Set(name, strconv.FormatFloat(v.Float(), 'f', -1, v.Type().Bits()))
	case reflect.Struct:
		return awsQueryStruct(q, name, v, depth)
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			q.Set(name, base64.StdEncoding.EncodeToString(v.Bytes()))
			return nil
		}
		if v.Len() == 0 {
			q.Set(name, "")
		}
		for i := range v.Len() {
			if err := awsQueryValue(q, name+"."+strconv.Itoa(i+1), v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String {
			return nil
		}
		prefix, key, val := name+".entry.", ".key", ".value"
		if _, flat := v.Interface().(interface{ flattenedMap() }); flat {
			prefix, key, val = name+".", ".Name", ".Value"
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		for i, k := range keys {
			n := prefix + strconv.Itoa(i+1)
			q.Set(n+key, k)
			if err := awsQueryValue(q, n+val, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())), depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("openapi: AWS query member %s: cannot encode a %s", name, v.Type())
	}
	return nil
}

// awsQueryStruct adds the members of struct v, named by their xml tags,
// under prefix (none for the input itself).
func awsQueryStruct(q url.Values, prefix string, v reflect.Value, depth int) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("xml")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || name == "-" || strings.Contains(tag, ",attr") || f.Tag.Get("json") == "-" && tag == "" {
			continue
		}
		if i := strings.LastIndex(name, " "); i >= 0 {
			name = name[i+1:] // a namespace: not part of a query name
		}
		if name == "" {
			name = f.Name
		}
		if outer, _, wrapped := strings.Cut(name, ">"); wrapped {
			name = outer + ".member"
		}
		if prefix != "" {
			name = prefix + "." + name
		}
		if err := awsQueryValue(q, name, v.Field(i), depth+1); err != nil {
			return err
		}
	}
	return nil
}
