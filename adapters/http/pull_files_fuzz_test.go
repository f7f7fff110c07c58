package http

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// FuzzPullFileQuery fuzzes the options of a pull request's file listing:
// a whitespace value Gitea does not have is a 400 naming whitespace, any
// other is one of the four modes, and skip-to is passed on as given.
func FuzzPullFileQuery(f *testing.F) {
	for _, q := range []string{"", "whitespace=ignore-all", "whitespace=IGNORE-ALL", "whitespace=show-all&skip-to=a%2Fb.txt",
		"whitespace=ignore-eol&whitespace=x", "skip-to=&whitespace=", "whitespace=ignore-change%00", "skip-to=%ZZ"} {
		f.Add(q)
	}
	modes := map[ports.DiffWhitespace]bool{ports.DiffShowAllWhitespace: true, ports.DiffIgnoreAllWhitespace: true,
		ports.DiffIgnoreWhitespaceChange: true, ports.DiffIgnoreWhitespaceEOL: true}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		r := httptest.NewRequest("GET", "/api/v1/repos/o/r/pulls/1/files", nil)
		r.URL.RawQuery = rawQuery
		in, err := pullFileQuery(&request{r: r})
		params := r.URL.Query()
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) || !strings.HasPrefix(errs.Message(err), "whitespace:") {
				t.Fatalf("pullFileQuery(%q) = %v", rawQuery, err)
			}
			if modes[ports.DiffWhitespace(params.Get("whitespace"))] || params.Get("whitespace") == "" {
				t.Fatalf("whitespace=%q refused", params.Get("whitespace"))
			}
			return
		}
		if !modes[in.Whitespace] {
			t.Fatalf("whitespace=%q read as %q", params.Get("whitespace"), in.Whitespace)
		}
		if v := params.Get("whitespace"); v != "" && string(in.Whitespace) != v {
			t.Fatalf("whitespace=%q read as %q", v, in.Whitespace)
		}
		if in.SkipTo != params.Get("skip-to") {
			t.Fatalf("skip-to=%q read as %q", params.Get("skip-to"), in.SkipTo)
		}
	})
}
