package http

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
)

// FuzzListOptions fuzzes the page and limit parameters of every listing:
// a malformed value is a 400; anything else is a page from 1 and a limit
// within the site's bounds whose row offset is not negative, and the Link
// header written for it names the neighbouring pages.
func FuzzListOptions(f *testing.F) {
	for _, q := range []string{"page=2&limit=10", "page=0&limit=-1", "page=x", "limit=1e3", "page_size=7",
		"page=1000000&limit=50", "page=9223372036854775807&limit=50", "limit=999999", "page=+3&limit=%2010", "page=&limit=", "page=2&page=3"} {
		f.Add(q, int64(137))
	}
	f.Fuzz(func(t *testing.T, rawQuery string, total int64) {
		s := &kernel{settings: site.Settings{DefaultPagingNum: 30, MaxResponseItems: 50}, baseURL: "http://h"}
		r := httptest.NewRequest("GET", "/api/v1/repos/search", nil)
		r.URL.RawQuery = rawQuery
		opts, err := s.listOptions(r)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("listOptions(%q) = %v, not a 400", rawQuery, err)
			}
			return
		}
		if opts.Page < 1 || opts.Limit < 1 || opts.Limit > 50 || opts.Offset() < 0 {
			t.Fatalf("listOptions(%q) = %+v, offset %d", rawQuery, opts, opts.Offset())
		}
		if total < 0 {
			total = -(total + 1)
		}
		total %= 1 << 40 // a row count a table can hold
		w := httptest.NewRecorder()
		s.setPaging(w, r, opts, total)
		if got := w.Header().Get("X-Total-Count"); got != strconv.FormatInt(total, 10) {
			t.Fatalf("X-Total-Count %q for %d", got, total)
		}
		link := w.Header().Get("Link")
		if link == "" {
			return
		}
		for _, l := range strings.Split(link, ",") {
			target, rel, ok := strings.Cut(l, ">; rel=")
			u, err := url.Parse(strings.TrimPrefix(target, "<"))
			if !ok || err != nil {
				t.Fatalf("Link %q", link)
			}
			page, err := strconv.Atoi(u.Query().Get("page"))
			if err != nil || page < 1 || u.Query().Get("limit") != strconv.Itoa(opts.Limit) {
				t.Fatalf("Link %q names page %q", l, u.Query().Get("page"))
			}
			switch rel {
			case `"next"`:
				if page != opts.Page+1 {
					t.Fatalf("next of page %d is %d", opts.Page, page)
				}
			case `"prev"`:
				if page != opts.Page-1 {
					t.Fatalf("prev of page %d is %d", opts.Page, page)
				}
			}
		}
	})
}
