package http

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/depothq/depot/adapters/http/openapigen"
	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocumentCoversTheTable loads the Swagger 2.0 document the
// server serves with kin-openapi, validates its OpenAPI 3 rendering, and
// checks that every row of the table is an operation with a documented
// success answer, and that the document has no operation the table lacks.
func TestOpenAPIDocumentCoversTheTable(t *testing.T) {
	table := (&Server{}).routes()
	v2, v3, err := openAPIDocuments(table, "https://depot.example/sub")
	if err != nil {
		t.Fatal(err)
	}
	var doc openapi2.T
	if err := doc.UnmarshalJSON(v2); err != nil {
		t.Fatalf("the Swagger 2.0 document does not load: %v", err)
	}
	if doc.Host != "depot.example" || doc.BasePath != "/sub/api/v1" {
		t.Errorf("host %q basePath %q", doc.Host, doc.BasePath)
	}
	doc3, err := openapi2conv.ToV3(&doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc3.Validate(context.Background()); err != nil {
		t.Fatalf("the document does not validate: %v", err)
	}
	loaded, err := openapi3.NewLoader().LoadFromData(v3)
	if err != nil {
		t.Fatalf("the OpenAPI 3 rendering does not load: %v", err)
	}
	if err := loaded.Validate(context.Background()); err != nil {
		t.Fatalf("the OpenAPI 3 rendering does not validate: %v", err)
	}

	inTable := map[string]bool{}
	for _, rt := range table {
		path, _ := openAPIPath(rt.path)
		key := rt.method + " " + path
		inTable[key] = true
		item := doc.Paths[path]
		if item == nil || item.GetOperation(rt.method) == nil {
			t.Errorf("%s %s is in the table, not in the document", rt.method, rt.path)
			continue
		}
		op := item.GetOperation(rt.method)
		success, schemas := 0, 0
		for code, resp := range op.Responses.Map() {
			n, err := strconv.Atoi(code)
			if err != nil || n < 200 || n > 399 {
				continue
			}
			success++
			if resp.Schema != nil || n == 204 || n == 302 || n == 303 { // redirects carry no body
				schemas++
			}
		}
		if success == 0 {
			t.Errorf("%s %s has no success answer", rt.method, rt.path)
		}
		// A read answers a body: its schema must be known (writes may
		// answer 201 or 208 without one, as Gitea's do).
		if rt.method == "GET" && schemas == 0 {
			t.Errorf("%s %s: no answer has a schema", rt.method, rt.path)
		}
		if op.Extensions["x-depot-access"] != orDash(rt.access) {
			t.Errorf("%s %s: x-depot-access %v, want %q", rt.method, rt.path, op.Extensions["x-depot-access"], rt.access)
		}
	}
	for path, item := range doc.Paths {
		for method := range item.Operations() {
			if !inTable[method+" "+path] {
				t.Errorf("%s %s is in the document, not in the table", method, path)
			}
		}
	}
	if s := doc.Paths["/repos/{owner}/{repo}/issues/{index}"]; s == nil || s.Get == nil ||
		s.Get.Responses.Value("200") == nil || s.Get.Responses.Value("200").Schema.Ref != "#/definitions/Issue" {
		t.Errorf("GET an issue does not answer the Issue definition")
	}
	if issue := doc.Definitions["Issue"]; issue == nil || issue.Value.Properties["pull_request"] == nil {
		t.Errorf("the Issue definition lacks Gitea's fields: %+v", issue)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestOpenAPITypesUpToDate regenerates openapi_types_gen.go and compares:
// a route or handler changed without `go generate ./adapters/http` fails.
func TestOpenAPITypesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the package with the type checker")
	}
	want, err := openapigen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("openapi_types_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("openapi_types_gen.go is stale: run go generate ./adapters/http")
	}
}
