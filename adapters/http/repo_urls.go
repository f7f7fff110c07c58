package http

import (
	"net/url"
	"strings"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
)

// The addresses of a repository, which the DTOs of many resources carry.

// escapePath escapes each segment of a slash-separated path for a URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// repoAPIURL is the API address of r, without a trailing slash.
func (s *kernel) repoAPIURL(r *repository.Repository) string {
	return s.baseURL + apiPrefix + "/repos/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
}

// repoWebURL is the web address of r.
func (s *kernel) repoWebURL(r *repository.Repository) string {
	return s.baseURL + "/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
}

// issueWebURL is the web address of i in r: under /pulls/ for a pull request.
func (s *kernel) issueWebURL(r *repository.Repository, i *issue.Issue) string {
	kind := "/issues/"
	if i.IsPull {
		kind = "/pulls/"
	}
	return s.repoWebURL(r) + kind + itoa(i.Index)
}
