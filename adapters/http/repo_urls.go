package http

import (
	"net/url"
	"strings"

	"github.com/depothq/depot/app/repos"
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

// repoAPIURL is the API address of a's repository, without a trailing slash.
func (s *kernel) repoAPIURL(a *repos.Access) string {
	return s.baseURL + apiPrefix + "/repos/" + url.PathEscape(a.Repo.Owner.Name) + "/" + url.PathEscape(a.Repo.Name)
}

// repoHTMLURL is the web address of a's repository.
func (s *kernel) repoHTMLURL(a *repos.Access) string {
	return s.baseURL + "/" + url.PathEscape(a.Repo.Owner.Name) + "/" + url.PathEscape(a.Repo.Name)
}
