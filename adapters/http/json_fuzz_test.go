package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// requestBodies make an empty value of every request body type the
// handlers decode, the route families' DTOs.
var requestBodies = []func() any{
	func() any { return new(createUserBody) }, func() any { return new(editUserBody) }, func() any { return new(renameBody) },
	func() any { return new(commentBody) }, func() any { return new(reactionBody) }, func() any { return new(attachmentEditBody) },
	func() any { return new(createHookBody) }, func() any { return new(editHookBody) }, func() any { return new(editGitHookBody) },
	func() any { return new(createIssueOption) }, func() any { return new(editIssueOption) }, func() any { return new(createKeyBody) },
	func() any { return new(createLabelBody) }, func() any { return new(editLabelBody) }, func() any { return new(issueLabelsBody) },
	func() any { return new(createMilestoneBody) }, func() any { return new(editMilestoneBody) }, func() any { return new(migrateBody) },
	func() any { return new(createPushMirrorBody) }, func() any { return new(editTeamBody) }, func() any { return new(createTeamBody) },
	func() any { return new(createOrgBody) }, func() any { return new(editOrgBody) }, func() any { return new(renameOrgBody) },
	func() any { return new(refCreateBranchBody) }, func() any { return new(refUpdateBranchBody) }, func() any { return new(refCreateTagBody) },
	func() any { return new(createRepoBody) }, func() any { return new(editRepoBody) }, func() any { return new(issueTrackerBody) },
	func() any { return new(createStatusDTO) }, func() any { return new(settingsBody) }, func() any { return new(emailsBody) },
	func() any { return new(tokenBody) }, func() any { return new(createFileBody) }, func() any { return new(updateFileBody) },
	func() any { return new(deleteFileBody) }, func() any { return new(changeFilesBody) }, func() any { return new(diffPatchBody) },
}

// decodeBody decodes body into dst as a handler does, with the site's body
// limit in front, and fails unless a refusal is categorised: 400 for what
// is not JSON of the right shape, 413 over the limit, 422 naming a field.
func decodeBody(t *testing.T, body []byte, limit int64, dst any) error {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/api/v1/x", bytes.NewReader(body))
	r.Body = http.MaxBytesReader(nil, r.Body, limit)
	err := decodeJSON(r, dst)
	if err == nil {
		return nil
	}
	categorised(t, err)
	return err
}

// categorised fails unless err is a client error with a category the
// status table knows, and a 422 names its fields.
func categorised(t *testing.T, err error) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("raw error %v (%T)", err, err)
	}
	switch {
	case errors.Is(err, errs.ErrBadRequest), errors.Is(err, errs.ErrTooLarge):
	case errors.Is(err, errs.ErrInvalid):
		if len(e.Fields) == 0 {
			t.Fatalf("422 %q names no field", e.Msg)
		}
		for _, f := range e.Fields {
			if f == "" {
				t.Fatalf("422 %q names an empty field", e.Msg)
			}
		}
	default:
		t.Fatalf("error %v has category %v, not a client error of a body", err, e.Kind)
	}
}

// FuzzDecodeJSON fuzzes every request body type with one body: a refusal
// is categorised, and an accepted body holds no NUL and encodes to JSON
// that decodes again to the same value.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{``, `  `, `[]`, `null`, `{"name":"x","private":true}`, `{"name":1}`,
		`{"labels":[1,"a"]}`, `{"labels":[1.5e3, -2]}`, `{"title":"a\u0000b"}`, `{"config":{"url":"\u0000"}}`,
		`{"due_on":"2024-01-01T00:00:00Z","state":"closed"}`, `{"files":[{"operation":"create","path":"a"}]}`,
		`{"assignees":["a",null]}`, `{"x":` + "\xff" + `}`, `{"units_map":{"repo.code":"read"}}`, `"str"`, `{"a":{"b":[[[[]]]]}}`} {
		f.Add(uint8(len(s)), []byte(s))
	}
	// Every type once; the fuzzer crosses types and bodies itself.
	for i := range requestBodies {
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		newBody := requestBodies[int(kind)%len(requestBodies)]
		dst := newBody()
		if err := decodeBody(t, body, 1<<12, dst); err != nil {
			if len(body) > 1<<12 != errors.Is(err, errs.ErrTooLarge) {
				t.Fatalf("%d bytes against a limit of %d gave %v", len(body), 1<<12, err)
			}
			return
		}
		if field := nulField(reflect.ValueOf(dst), ""); field != "" {
			t.Fatalf("accepted a NUL in %s", field)
		}
		out, err := json.Marshal(dst)
		if err != nil {
			t.Fatalf("accepted %T does not encode: %v", dst, err)
		}
		again := newBody()
		if err := decodeBody(t, out, 1<<20, again); err != nil {
			t.Fatalf("re-encoded %s is refused: %v", out, err)
		}
		if out2, _ := json.Marshal(again); !bytes.Equal(out, out2) {
			t.Fatalf("%T does not survive a round trip: %s then %s", dst, out, out2)
		}
	})
}
