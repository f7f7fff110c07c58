package http

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// contentRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *kernel) contentRoutes() []route {
	return []route{
		{"GET", R + "/raw/{filepath:.*}", scopes(catRepo), "RR(code)", s.getRaw},
		{"GET", R + "/media/{filepath:.*}", scopes(catRepo), "RR(code)", s.getRaw},
		{"HEAD", R + "/raw/{filepath:.*}", scopes(catRepo), "RR(code)", s.getRaw},
		{"HEAD", R + "/media/{filepath:.*}", scopes(catRepo), "RR(code)", s.getRaw},
		{"GET", R + "/contents", scopes(catRepo), "RR(code)", s.getContents},
		{"GET", R + "/contents/{filepath:.*}", scopes(catRepo), "RR(code)", s.getContents},
		{"GET", R + "/git/trees/{sha}", scopes(catRepo), "RR(code)", s.getGitTree},
		{"GET", R + "/git/blobs/{sha}", scopes(catRepo), "RR(code)", s.getGitBlob},
	}
}

// refParam is the ref query parameter, trimmed as Gitea trims it.
func refParam(q *request) string {
	if q.r.URL.RawQuery == "" {
		return ""
	}
	return strings.TrimSpace(q.r.URL.Query().Get("ref"))
}

// getContents answers GET R/contents[/{filepath}]: a file, link or
// submodule as one ContentsResponse, a directory as a list of them.
func (s *kernel) getContents(q *request) error {
	res, err := s.content.Contents(q.r.Context(), q.repo, refParam(q), q.var_("filepath"))
	if err != nil {
		return contentsMissing(err)
	}
	if res.Entries != nil {
		list := make([]contentsDTO, len(res.Entries))
		for i, e := range res.Entries {
			list[i] = s.toContents(q.repo, res.Revision, e, false)
		}
		q.json(200, list)
		return nil
	}
	q.json(200, s.toContents(q.repo, res.Revision, res.Entry, res.Entry.Content != nil))
	return nil
}

// getRaw answers GET R/raw/{filepath} and R/media/{filepath}: the file's
// bytes. Depot keeps no Git LFS objects yet, so media serves an LFS pointer
// file as its own bytes, as Gitea does for a pointer without its object.
func (s *kernel) getRaw(q *request) error {
	res, rd, err := s.content.OpenRaw(q.r.Context(), q.repo, refParam(q), q.var_("filepath"))
	if err != nil {
		return rawMissing(err)
	}
	defer rd.Close()
	return serveBlob(q, res, rd)
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

// gitBlobDTO is Gitea's GitBlobResponse; content and encoding are null for
// a blob too large to include.
type gitBlobDTO struct {
	Content  *string `json:"content"`
	Encoding *string `json:"encoding"`
	URL      string  `json:"url"`
	SHA      string  `json:"sha"`
	Size     int64   `json:"size"`
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
func (s *kernel) getGitTree(q *request) error {
	v := q.r.URL.Query()
	recursive, _ := strconv.ParseBool(v.Get("recursive"))
	perPage := formInt(v, "per_page")
	t, page, err := s.content.GitTree(q.r.Context(), q.repo, q.var_("sha"), recursive, formInt(v, "page"), perPage)
	if err != nil {
		return notFoundAsBadRequest(err)
	}
	api := s.repoAPIURL(q.repo)
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
func (s *kernel) toGitEntry(api string, e ports.GitTreeEntry) gitEntryDTO {
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

// getGitBlob answers GET R/git/blobs/{sha}.
func (s *kernel) getGitBlob(q *request) error {
	b, err := s.content.GitBlob(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return notFoundAsBadRequest(err)
	}
	out := gitBlobDTO{URL: s.repoAPIURL(q.repo) + "/git/blobs/" + url.PathEscape(b.ID), SHA: b.ID, Size: b.Size}
	if b.Content != nil {
		enc, content := "base64", base64.StdEncoding.EncodeToString(b.Content)
		out.Encoding, out.Content = &enc, &content
	}
	q.json(200, out)
	return nil
}
