package http

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// listOptions reads page and limit. A non-numeric value is a 400; a page
// below 1 is 1 and one above ports.MaxPage (or too large for an int) is
// ports.MaxPage, a page past any end; a missing or non-positive limit is the
// site default, and a limit above the maximum (or too large for an int) is
// the maximum.
func (s *kernel) listOptions(r *http.Request) (ports.ListOptions, error) {
	q := r.URL.Query()
	opts := ports.ListOptions{Page: 1, Limit: s.settings.DefaultPagingNum}
	if v := q.Get("page"); v != "" {
		p, err := pagingInt(v)
		if err != nil {
			return opts, errs.BadRequest("page: must be an integer")
		}
		opts.Page = p
	}
	lv := q.Get("limit")
	if lv == "" {
		lv = q.Get("page_size")
	}
	if lv != "" {
		l, err := pagingInt(lv)
		if err != nil {
			return opts, errs.BadRequest("limit: must be an integer")
		}
		if l > 0 {
			opts.Limit = l
		}
	}
	if opts.Limit > s.settings.MaxResponseItems {
		opts.Limit = s.settings.MaxResponseItems
	}
	return opts.Clamped(), nil
}

// pagingInt parses a page or limit: an integer too large (or too small)
// for an int is the largest (or smallest) one, to be clamped, not refused.
func pagingInt(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, err
	}
	return n, nil
}

// setPaging writes X-Total-Count and a Link header with next, prev, first and
// last pages, as Gitea does.
func (s *kernel) setPaging(w http.ResponseWriter, r *http.Request, opts ports.ListOptions, total int64) {
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	last := int((total + int64(opts.Limit) - 1) / int64(opts.Limit))
	if last < 1 {
		last = 1
	}
	s.setLinks(w, r, opts, opts.Page < last, last)
}

// setUncountedPaging sets the Link header of a page whose listing's total
// is not known yet: next when more follows, no last.
func (s *kernel) setUncountedPaging(w http.ResponseWriter, r *http.Request, opts ports.ListOptions, more bool) {
	s.setLinks(w, r, opts, more, 0)
}

// setLinks sets the Link header: next when more follows, last when known
// (above 0), and first and prev after the first page.
func (s *kernel) setLinks(w http.ResponseWriter, r *http.Request, opts ports.ListOptions, more bool, last int) {
	h := w.Header()
	var links []string
	link := func(page int, rel string) {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(page))
		q.Set("limit", strconv.Itoa(opts.Limit))
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		links = append(links, "<"+s.baseURL+u.String()+`>; rel="`+rel+`"`)
	}
	if more {
		link(opts.Page+1, "next")
		if last > 0 {
			link(last, "last")
		}
	}
	if opts.Page > 1 {
		link(1, "first")
		link(opts.Page-1, "prev")
	}
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ","))
	}
}

// setPageHeaders writes the page headers Gitea 1.27 keeps "for backwards
// compatibility" on its commit listings (routers/api/v1/repo/commits.go
// GetAllCommits: X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore, each
// added to Access-Control-Expose-Headers). A negative total is one not
// known yet: X-Total and X-PageCount are left out and X-HasMore is more.
func setPageHeaders(w http.ResponseWriter, opts ports.ListOptions, total int64, more bool) {
	h := w.Header()
	names := []string{"X-Page", "X-PerPage", "X-Total", "X-PageCount", "X-HasMore"}
	h.Set("X-Page", strconv.Itoa(opts.Page))
	h.Set("X-PerPage", strconv.Itoa(opts.Limit))
	if total >= 0 {
		pages := int((total + int64(opts.Limit) - 1) / int64(opts.Limit))
		h.Set("X-Total", strconv.FormatInt(total, 10))
		h.Set("X-PageCount", strconv.Itoa(pages))
		more = opts.Page < pages
	}
	h.Set("X-HasMore", strconv.FormatBool(more))
	if exposed := h.Get("Access-Control-Expose-Headers"); exposed != "" {
		h.Set("Access-Control-Expose-Headers", exposed+", "+strings.Join(names, ", "))
	} else {
		h.Set("Access-Control-Expose-Headers", strings.Join(names, ", "))
	}
}
