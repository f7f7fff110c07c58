package http

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
)

// FuzzNotificationQuery fuzzes the queries of the notification routes: the
// list's filter and the mark's selection. Bad input is a 400, never
// anything else; what parses keeps the statuses and subjects it named.
func FuzzNotificationQuery(f *testing.F) {
	for _, q := range []string{"status-types=unread&status-types=pinned", "status-types=read,,bogus", "subject-type=Issue,pull",
		"all=true&since=2024-01-01T00:00:00Z&before=x", "to-status=PINNED&last_read_at=2024-01-01T00:00:00Z", "all=2&page=-1&limit=1e9"} {
		f.Add(q)
	}
	s := notificationThreads{&kernel{settings: site.Settings{DefaultPagingNum: 30, MaxResponseItems: 50}, baseURL: "http://h"}}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		r := httptest.NewRequest("GET", "/api/v1/notifications", nil)
		r.URL.RawQuery = rawQuery
		q := &request{r: r}
		bad := func(err error) {
			t.Helper()
			if err != nil && !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("%q: %v", rawQuery, err)
			}
		}
		fl, err := s.filter(q)
		bad(err)
		if err == nil {
			for _, st := range fl.Statuses {
				if st.String() == "" {
					t.Fatalf("%q: status %d has no name", rawQuery, st)
				}
			}
			if fl.Limit <= 0 || fl.Limit > 50 || fl.Page < 1 {
				t.Fatalf("%q: paging %+v", rawQuery, fl.ListOptions)
			}
		}
		m, err := s.markQuery(q)
		bad(err)
		if err == nil && m.To.String() == "" {
			t.Fatalf("%q: to-status %d has no name", rawQuery, m.To)
		}
	})
}
