package http

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
)

// The OpenAPI document is built from the route table and the types each
// row's handler decodes and answers (openapi_types_gen.go, generated from
// the handlers' code by openapigen, completed by openapiAnswersByHand for
// the answers that are not JSON or that the generator cannot see), so it
// follows the routes Depot serves and cannot drift from them.

// openAPIDocument builds the Swagger 2.0 document of the table.
func openAPIDocument(table []route, baseURL string) (*openapi2.T, error) {
	doc := &openapi2.T{
		Swagger: "2.0",
		Info: openapi3.Info{
			Title:       "Depot API",
			Description: "The REST API of Depot, which answers as Gitea " + APILevel + " does.",
			Version:     APILevel + "+depot." + Version,
			License:     &openapi3.License{Name: "MIT", URL: "http://opensource.org/licenses/MIT"},
		},
		BasePath: apiPrefix,
		Schemes:  []string{"https", "http"},
		Consumes: []string{"application/json", "text/plain"},
		Produces: []string{"application/json", "text/html"},
		Paths:    map[string]*openapi2.PathItem{},
		SecurityDefinitions: map[string]*openapi2.SecurityScheme{
			"BasicAuth":                {Type: "basic"},
			"AuthorizationHeaderToken": {Type: "apiKey", Name: "Authorization", In: "header", Description: "API tokens must be prepended with \"token\" followed by a space."},
			"SudoHeader":               {Type: "apiKey", Name: "Sudo", In: "header", Description: "Sudo API request as the user provided as the key. Admin privileges are required."},
			"TOTPHeader":               {Type: "apiKey", Name: "X-Service-OTP", In: "header", Description: "Must be used in combination with BasicAuth if two-factor authentication is enabled."},
		},
		Security: openapi2.SecurityRequirements{
			{"BasicAuth": {}}, {"AuthorizationHeaderToken": {}}, {"SudoHeader": {}}, {"TOTPHeader": {}},
		},
	}
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		doc.Host = u.Host
		doc.Schemes = []string{u.Scheme}
		doc.BasePath = strings.TrimSuffix(u.Path, "/") + apiPrefix
	}
	defs := &definitions{all: map[string]*openapi2.SchemaRef{}, names: map[reflect.Type]string{}}
	seenTags := map[string]bool{}
	for _, rt := range table {
		path, params := openAPIPath(rt.path)
		item := doc.Paths[path]
		if item == nil {
			item = &openapi2.PathItem{}
			doc.Paths[path] = item
		}
		op, err := openAPIOperation(rt, params, defs)
		if err != nil {
			return nil, err
		}
		if item.GetOperation(rt.method) != nil {
			return nil, fmt.Errorf("openapi: %s %s is in the table twice", rt.method, path)
		}
		item.SetOperation(rt.method, op)
		for _, t := range op.Tags {
			if !seenTags[t] {
				seenTags[t] = true
				doc.Tags = append(doc.Tags, &openapi3.Tag{Name: t})
			}
		}
	}
	sort.Slice(doc.Tags, func(i, j int) bool { return doc.Tags[i].Name < doc.Tags[j].Name })
	doc.Definitions = defs.all
	return doc, nil
}

// openAPIDocuments renders the Swagger 2.0 document and its OpenAPI 3
// conversion as JSON.
func openAPIDocuments(table []route, baseURL string) (v2, v3 []byte, err error) {
	doc, err := openAPIDocument(table, baseURL)
	if err != nil {
		return nil, nil, err
	}
	if v2, err = json.Marshal(doc); err != nil {
		return nil, nil, err
	}
	doc3, err := openapi2conv.ToV3(doc)
	if err != nil {
		return nil, nil, err
	}
	if v3, err = json.Marshal(doc3); err != nil {
		return nil, nil, err
	}
	return v2, v3, nil
}

// pathVar matches a mux variable, with its optional pattern.
var pathVar = regexp.MustCompile(`\{([^{}:]+)(?::((?:[^{}]|\{[^{}]*\})*))?\}`)

// alternatives matches a variable's pattern that lists its values (a|b|c).
var alternatives = regexp.MustCompile(`^[a-z|]+$`)

// openAPIPath turns a mux pattern into an OpenAPI path (the variables'
// patterns dropped) and the path parameters it declares.
func openAPIPath(pattern string) (string, openapi2.Parameters) {
	var params openapi2.Parameters
	path := pathVar.ReplaceAllStringFunc(pattern, func(m string) string {
		sub := pathVar.FindStringSubmatch(m)
		name, pat := sub[1], sub[2]
		p := &openapi2.Parameter{In: "path", Name: name, Required: true, Type: &openapi3.Types{"string"}}
		switch {
		case pat == "[0-9]+":
			p.Type = &openapi3.Types{"integer"}
			p.Format = "int64"
		case pat == ".*":
			p.Description = "may contain slashes"
		case pat != "" && alternatives.MatchString(pat):
			for _, v := range strings.Split(pat, "|") {
				p.Enum = append(p.Enum, v)
			}
		case strings.HasSuffix(name, "id") || name == "index" || name == "id":
			p.Type = &openapi3.Types{"integer"}
			p.Format = "int64"
		}
		params = append(params, p)
		return "{" + name + "}"
	})
	return path, params
}

// openAPIOperation describes one row.
func openAPIOperation(rt route, params openapi2.Parameters, defs *definitions) (*openapi2.Operation, error) {
	key := rt.method + " " + rt.path
	shape, ok := operationTypes[key]
	if hand, byHand := openapiAnswersByHand[key]; byHand {
		shape.answers = hand
		ok = true
	}
	if !ok || len(shape.answers) == 0 {
		return nil, fmt.Errorf("openapi: no answer is known for %s (run go generate ./adapters/http, or add it to openapiAnswersByHand)", key)
	}
	scopeNames := []string{}
	for _, c := range rt.scopes {
		scopeNames = append(scopeNames, string(c))
	}
	access := rt.access
	if access == "" {
		access = "-"
	}
	desc := "Access: `" + access + "`."
	if len(scopeNames) > 0 {
		desc = "Token scope: `" + strings.Join(scopeNames, "`, `") + "` (read for GET, write otherwise). " + desc
	}
	op := &openapi2.Operation{
		OperationID: operationID(rt.method, rt.path),
		Tags:        []string{operationTag(rt.path)},
		Summary:     rt.method + " " + rt.path,
		Description: desc,
		Parameters:  append(openapi2.Parameters{}, params...),
		Responses:   openapi2.NewResponsesWithCapacity(len(shape.answers)),
		Extensions:  map[string]any{"x-depot-access": access, "x-depot-scopes": scopeNames},
	}
	if rt.method == "GET" && strings.Contains(access, "-") && len(rt.scopes) == 0 {
		op.Security = &openapi2.SecurityRequirements{}
	}
	if shape.body != nil {
		op.Parameters = append(op.Parameters, &openapi2.Parameter{In: "body", Name: "body", Schema: defs.schema(shape.body)})
	}
	for _, a := range shape.answers {
		if a.status == 0 { // chosen at run time
			a.status = http.StatusOK
			if rt.method == http.MethodPost {
				a.status = http.StatusCreated
			}
		}
		resp := &openapi2.Response{Description: http2Text(a.status)}
		switch {
		case a.typ == rawAnswer:
			resp.Schema = &openapi2.SchemaRef{Value: &openapi2.Schema{Type: &openapi3.Types{"file"}}}
			resp.Description += " (not JSON)"
		case a.typ != nil:
			resp.Schema = defs.schema(a.typ)
		}
		op.Responses.Set(strconv.Itoa(a.status), resp)
	}
	op.Responses.Set("default", &openapi2.Response{Description: "an error",
		Schema: defs.schema(reflect.TypeFor[apiError]())})
	return op, nil
}

func http2Text(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "success"
}

// operationID names a row uniquely: the method and the path's segments.
func operationID(method, path string) string {
	p, _ := openAPIPath(path)
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '.' || r == '-' || r == '_' }) {
		seg = strings.Trim(seg, "{}")
		if seg == "" {
			continue
		}
		b.WriteString(strings.ToUpper(seg[:1]) + seg[1:])
	}
	return b.String()
}

// operationTag groups the rows by their first segment, as Gitea's document
// does (repository, user, organization, admin, …).
func operationTag(path string) string {
	seg := strings.SplitN(strings.TrimPrefix(path, "/"), "/", 2)[0]
	switch seg {
	case "repos":
		if strings.HasPrefix(path, R+"/issues") || strings.HasPrefix(path, R+"/labels") || strings.HasPrefix(path, R+"/milestones") {
			return "issue"
		}
		return "repository"
	case "user", "users":
		return "user"
	case "orgs", "org", "teams":
		return "organization"
	case "admin":
		return "admin"
	}
	return "miscellaneous"
}

// definitions are the document's named schemas, one per named Go type.
type definitions struct {
	all   map[string]*openapi2.SchemaRef
	names map[reflect.Type]string
}

var timeType = reflect.TypeFor[time.Time]()

// schema is the schema of t as encoding/json writes it: named structs
// become definitions referred to by name.
func (d *definitions) schema(t reflect.Type) *openapi2.SchemaRef {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == timeType {
		return &openapi2.SchemaRef{Value: &openapi2.Schema{Type: &openapi3.Types{"string"}, Format: "date-time"}}
	}
	if t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType) {
		return &openapi2.SchemaRef{Value: &openapi2.Schema{Description: "encoded by " + t.String()}}
	}
	switch t.Kind() {
	case reflect.Bool:
		return typed("boolean", "")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return typed("integer", "int32")
	case reflect.Int64, reflect.Uint64:
		return typed("integer", "int64")
	case reflect.Float32, reflect.Float64:
		return typed("number", "double")
	case reflect.String:
		return typed("string", "")
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return typed("string", "byte")
		}
		return &openapi2.SchemaRef{Value: &openapi2.Schema{Type: &openapi3.Types{"array"}, Items: d.schema(t.Elem())}}
	case reflect.Map:
		return &openapi2.SchemaRef{Value: &openapi2.Schema{Type: &openapi3.Types{"object"},
			AdditionalProperties: openapi3.AdditionalProperties{Schema: toV3Ref(d.schema(t.Elem()))}}}
	case reflect.Struct:
		if t.Name() == "" {
			return &openapi2.SchemaRef{Value: d.object(t)}
		}
		name, ok := d.names[t]
		if !ok {
			name = definitionName(t, d.all)
			d.names[t] = name
			ref := &openapi2.SchemaRef{}
			d.all[name] = ref
			ref.Value = d.object(t)
		}
		return &openapi2.SchemaRef{Ref: "#/definitions/" + name}
	}
	return &openapi2.SchemaRef{Value: &openapi2.Schema{}}
}

var jsonMarshalerType = reflect.TypeFor[json.Marshaler]()

// toV3Ref carries a Swagger 2 schema where the library's type wants an
// OpenAPI 3 one (additionalProperties).
func toV3Ref(s *openapi2.SchemaRef) *openapi3.SchemaRef {
	if s.Ref != "" {
		return &openapi3.SchemaRef{Ref: s.Ref}
	}
	v := s.Value
	out := &openapi3.Schema{Type: v.Type, Format: v.Format, Description: v.Description}
	if v.Items != nil {
		out.Items = toV3Ref(v.Items)
	}
	return &openapi3.SchemaRef{Value: out}
}

func typed(typ, format string) *openapi2.SchemaRef {
	return &openapi2.SchemaRef{Value: &openapi2.Schema{Type: &openapi3.Types{typ}, Format: format}}
}

// definitionName is the Go type's name, qualified by its package when two
// packages share it.
func definitionName(t reflect.Type, taken map[string]*openapi2.SchemaRef) string {
	name := strings.TrimSuffix(t.Name(), "DTO")
	name = strings.NewReplacer("[", "_", "]", "", "*", "", ".", "_", "/", "_", ",", "_").Replace(name)
	if name == "" {
		name = "Object"
	}
	name = strings.ToUpper(name[:1]) + name[1:]
	if _, clash := taken[name]; !clash {
		return name
	}
	for i := 2; ; i++ {
		if _, clash := taken[name+strconv.Itoa(i)]; !clash {
			return name + strconv.Itoa(i)
		}
	}
}

// object is the schema of a struct's JSON fields (embedded structs
// flattened, as encoding/json does).
func (d *definitions) object(t reflect.Type) *openapi2.Schema {
	s := &openapi2.Schema{Type: &openapi3.Types{"object"}, Properties: openapi2.Schemas{}}
	d.fields(t, s)
	return s
}

func (d *definitions) fields(t reflect.Type, s *openapi2.Schema) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				d.fields(ft, s)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "string") {
			s.Properties[name] = typed("string", "")
			continue
		}
		s.Properties[name] = d.schema(ft)
	}
}
