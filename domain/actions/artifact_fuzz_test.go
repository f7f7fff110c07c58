package actions_test

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

// FuzzParseSignedArtifactURL: any query either parses into positive ids,
// a positive expiry and a bounded signature, or is refused as
// unauthenticated; never a panic.
func FuzzParseSignedArtifactURL(f *testing.F) {
	for _, s := range []string{"sig=abc&expires=1700000000&artifactID=3&taskID=4", "sig=&expires=1", "expires=-1&sig=x",
		"sig=x&expires=99999999999999999999&artifactID=1&taskID=1", "sig=x&expires=1&artifactID=0&taskID=1", "%zz"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, query string, raw bool) {
		q, _ := url.ParseQuery(query)
		u, err := actions.ParseSignedArtifactURL(q.Get, raw)
		if err != nil {
			if !errors.Is(err, errs.ErrUnauthenticated) {
				t.Fatalf("%q: error %v is not unauthenticated", query, err)
			}
			return
		}
		if u.Sig == "" || len(u.Sig) > 128 || u.Expires.Unix() <= 0 {
			t.Fatalf("%q parsed as %+v", query, u)
		}
		if !raw && (u.ArtifactID <= 0 || u.TaskID <= 0) {
			t.Fatalf("%q parsed as %+v", query, u)
		}
		// The message names the endpoint, ids and expiry unambiguously.
		m := u.Message(actions.ArtifactUploadEndpoint)
		if !strings.HasSuffix(m, ":"+strconv.FormatInt(u.Expires.Unix(), 10)) {
			t.Fatalf("message %q", m)
		}
	})
}

// FuzzParseBlockList: any document yields ids that are all valid and at
// most the maximum, or a categorised error.
func FuzzParseBlockList(f *testing.F) {
	for _, s := range []string{`<BlockList><Latest>YQ==</Latest></BlockList>`, `<BlockList></BlockList>`, `<x`,
		`<?xml version="1.0"?><BlockList><Committed>a</Committed><Uncommitted>b</Uncommitted><Latest>c</Latest></BlockList>`,
		`<BlockList><Latest></Latest></BlockList>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		ids, err := actions.ParseBlockList(doc)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) && !errors.Is(err, errs.ErrTooLarge) {
				t.Fatalf("uncategorised error %v", err)
			}
			return
		}
		if len(ids) == 0 || len(ids) > actions.MaxArtifactBlocks {
			t.Fatalf("%d ids", len(ids))
		}
		for _, id := range ids {
			if actions.ValidateBlockID(id) != nil {
				t.Fatalf("invalid id %q accepted", id)
			}
		}
	})
}

// FuzzValidateArtifactName: an accepted name is non-blank UTF-8 of at most
// 255 bytes without a refused character; a refused one is a 422 on name.
func FuzzValidateArtifactName(f *testing.F) {
	for _, s := range []string{"dist", "a/b", "", " ", "x\ny", "ok-name_1.2", strings.Repeat("a", 256), "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := actions.ValidateArtifactName(name)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("%q: %v is not a 422", name, err)
			}
			return
		}
		if strings.TrimSpace(name) == "" || len(name) > 255 || strings.ContainsAny(name, "\":<>|*?\\/\r\n") {
			t.Fatalf("%q accepted", name)
		}
	})
}
