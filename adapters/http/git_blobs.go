package http

import (
	"encoding/base64"
	"net/url"
)

// gitBlobs serves the Git blobs route (catalogue 4.5).
type gitBlobs struct{ *kernel }

// gitBlobRoutes are the rows of gitBlobs.
func (s *kernel) gitBlobRoutes() []route {
	h := gitBlobs{s}
	return []route{
		{"GET", R + "/git/blobs/{sha}", scopes(catRepo), "RR(code)", h.getGitBlob},
	}
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

// getGitBlob answers GET R/git/blobs/{sha}.
func (s gitBlobs) getGitBlob(q *request) error {
	b, err := s.content.GitBlobs().Get(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return notFoundAsBadRequest(err)
	}
	out := gitBlobDTO{URL: s.repoAPIURL(q.repo.Repo) + "/git/blobs/" + url.PathEscape(b.ID), SHA: b.ID, Size: b.Size}
	if b.Content != nil {
		enc, content := "base64", base64.StdEncoding.EncodeToString(b.Content)
		out.Encoding, out.Content = &enc, &content
	}
	q.json(200, out)
	return nil
}
