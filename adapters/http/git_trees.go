package http

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// gitTrees serves the Git trees route (catalogue 4.5).
type gitTrees struct{ *kernel }

// gitTreeRoutes are the rows of gitTrees.
func (s *kernel) gitTreeRoutes() []route {
	h := gitTrees{s}
	return []route{
		{"GET", R + "/git/trees/{sha}", scopes(catRepo), "RR(code)", h.getGitTree},
	}
}

// gitEntryDTO is Gitea's GitEntry: one entry of a tree listing.
type gitEntryDTO struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

// gitTreeDTO is Gitea's GitTreeResponse.
type gitTreeDTO struct {
	SHA        string        `json:"sha"`
	URL        string        `json:"url"`
	Entries    []gitEntryDTO `json:"tree"`
	Truncated  bool          `json:"truncated"`
	Page       int           `json:"page"`
	TotalCount int           `json:"total_count"`
}

// formInt reads an integer query parameter leniently, as Gitea's FormInt:
// absent or malformed is 0.
func formInt(v url.Values, name string) int {
	n, _ := strconv.Atoi(v.Get(name))
	return n
}

// notFoundAsBadRequest turns a not-found into a 400 with the same message:
// Gitea answers an unknown sha on the Git data routes with 400.
func notFoundAsBadRequest(err error) error {
	if errors.Is(err, errs.ErrNotFound) {
		return errs.BadRequest(errs.Message(err))
	}
	return err
}

// getGitTree answers GET R/git/trees/{sha}.
func (s gitTrees) getGitTree(q *request) error {
	v := q.r.URL.Query()
	recursive, _ := strconv.ParseBool(v.Get("recursive"))
	perPage := formInt(v, "per_page")
	t, page, err := s.content.GitTrees().Get(q.r.Context(), q.repo, q.var_("sha"), recursive, formInt(v, "page"), perPage)
	if err != nil {
		return notFoundAsBadRequest(err)
	}
	api := s.repoAPIURL(q.repo.Repo)
	out := gitTreeDTO{SHA: t.ID, URL: api + "/git/trees/" + url.PathEscape(t.ID), Page: page, TotalCount: t.Total}
	if len(t.Entries) > 0 {
		out.Entries = make([]gitEntryDTO, len(t.Entries))
		for i, e := range t.Entries {
			out.Entries[i] = s.toGitEntry(api, e)
		}
		if perPage <= 0 || perPage > content.GitTreesPerPage {
			perPage = content.GitTreesPerPage
		}
		out.Truncated = (page-1)*perPage+len(t.Entries) < t.Total
	}
	q.w.Header().Set("X-Total-Count", strconv.Itoa(t.Total))
	q.json(200, out)
	return nil
}

// toGitEntry renders a tree entry; a submodule has no URL, as on GitHub.
func (s gitTrees) toGitEntry(api string, e ports.GitTreeEntry) gitEntryDTO {
	d := gitEntryDTO{Path: e.Path, Mode: gitMode(e.Mode), Type: e.Type, Size: e.Size, SHA: e.ID}
	switch e.Type {
	case "tree":
		d.URL = api + "/git/trees/" + e.ID
	case "blob":
		d.URL = api + "/git/blobs/" + e.ID
	}
	return d
}

// gitMode writes a file mode as Git does, six octal digits ("040000").
func gitMode(m int) string {
	s := strconv.FormatInt(int64(m), 8)
	if len(s) < 6 {
		s = strings.Repeat("0", 6-len(s)) + s
	}
	return s
}
