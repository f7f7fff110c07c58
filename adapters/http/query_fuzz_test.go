package http

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzQueryParams fuzzes the query parameters the listings read besides
// paging: booleans, integers, RFC 3339 times and the issue filter. A
// malformed value is a 400 naming the parameter, never anything else.
func FuzzQueryParams(f *testing.F) {
	for _, q := range []string{"archived=true&uid=3", "template=maybe", "uid=1e3", "since=2024-01-01T00:00:00Z&before=x",
		"labels=a,,b&milestones=%20&state=all&q=%20kw%20", "since=0000-01-01T00:00:00%2B01:00", "starredBy=-9223372036854775809"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		r := httptest.NewRequest("GET", "/api/v1/repos/search", nil)
		r.URL.RawQuery = rawQuery
		q := &request{r: r}
		badRequestOn := func(err error, name string) {
			t.Helper()
			if err != nil && (!errors.Is(err, errs.ErrBadRequest) || !strings.HasPrefix(errs.Message(err), name+":")) {
				t.Fatalf("%s in %q: %v", name, rawQuery, err)
			}
		}
		for _, name := range []string{"archived", "template", "is_private"} {
			b, err := queryBool(q, name)
			badRequestOn(err, name)
			if err == nil && (b != nil) != (r.URL.Query().Get(name) != "") {
				t.Fatalf("%s=%q read as %v", name, r.URL.Query().Get(name), b)
			}
		}
		for _, name := range []string{"uid", "starredBy"} {
			_, err := queryInt(q, name)
			badRequestOn(err, name)
		}
		fl, err := issueFilter(q)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("issueFilter(%q) = %v", rawQuery, err)
			}
			return
		}
		if fl.Keyword != strings.TrimSpace(fl.Keyword) {
			t.Fatalf("keyword %q", fl.Keyword)
		}
		if strings.TrimSpace(r.URL.Query().Get("labels")) == "" && fl.Labels != nil {
			t.Fatalf("labels %q from %q", fl.Labels, rawQuery)
		}
	})
}
