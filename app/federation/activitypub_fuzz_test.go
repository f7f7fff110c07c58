package federation

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzParseActivity fuzzes the body posted to an inbox: refused as a bad
// request (400), or read to an activity with a type and an actor, whose
// IRIs stay within bounds and whose embedded activities nest no deeper
// than the bound.
func FuzzParseActivity(f *testing.F) {
	for _, s := range []string{
		`{"type":"Follow","actor":"https://r.example/bob","object":"https://d.example/api/v1/activitypub/user-id/1"}`,
		`{"type":"Undo","actor":{"id":"https://r.example/bob"},"object":{"type":"Follow","actor":"https://r.example/bob","object":"x"}}`,
		`{"type":["Like"],"actor":"a","object":{"id":"o"}}`, `{"type":"Like","actor":1}`, `{"type":"","actor":"a"}`,
		`[]`, `null`, `"x"`, ``, `{`, `{"type":"Undo","actor":"a","object":{"object":{"object":{"object":{"object":{}}}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := ParseActivity(body)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("error %v is not a 400", err)
			}
			return
		}
		if a.Type == "" || a.Actor == "" {
			t.Fatalf("ParseActivity(%q) = %+v", body, a)
		}
		depth := 0
		for in := &a; in != nil; in = in.Inner {
			if len(in.ID) > maxIRI || len(in.Actor) > maxIRI || len(in.Object) > maxIRI ||
				strings.IndexByte(in.Actor+in.Object+in.ID, 0) >= 0 {
				t.Fatalf("an IRI past the bound in %+v", in)
			}
			depth++
		}
		if depth > maxActivityDepth+1 {
			t.Fatalf("nesting %d past the bound", depth)
		}
	})
}
