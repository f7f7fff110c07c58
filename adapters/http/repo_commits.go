package http

import (
	"net/http"
	"strings"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/ports"
)

// repoCommits serves a repository's commits: listings, one commit, and its
// diff or patch (catalogue 4.5).
type repoCommits struct{ *kernel }

// commitRoutes are the rows of repoCommits.
func (s *kernel) commitRoutes() []route {
	h := repoCommits{s}
	return []route{
		{"GET", R + "/commits", scopes(catRepo), "RR(code)", h.listCommits},
		{"GET", R + "/commits/{sha}", scopes(catRepo), "RR(code)", h.getCommitOrSHA},
		{"GET", R + "/git/commits/{sha}", scopes(catRepo), "RR(code)", h.getGitCommit},
	}
}

// shaMediaTypes are the Accept values that ask R/commits/{sha} for the bare
// commit id: the spec's, and Gitea's for its clients.
var shaMediaTypes = []string{"application/vnd.service.sha", "application/vnd.gitea.sha"}

// listCommits answers GET R/commits with one page and Gitea's paging headers.
func (s repoCommits) listCommits(q *request) error {
	page, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	fields, err := commitFields(q)
	if err != nil {
		return err
	}
	params := q.r.URL.Query()
	in := content.CommitListQuery{
		Ref: params.Get("sha"), Not: params.Get("not"), Path: params.Get("path"),
		CommitFieldOptions: fields, Page: page,
	}
	if in.Since, err = queryTime(q, "since"); err != nil {
		return err
	}
	if in.Until, err = queryTime(q, "until"); err != nil {
		return err
	}
	list, err := s.content.Commits().List(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	out := make([]histCommitDTO, len(list.Commits))
	for i, c := range list.Commits {
		out[i] = s.toHistCommit(q.caller, q.repo, c)
	}
	if list.Total >= 0 {
		s.setPaging(q.w, q.r, page, list.Total)
	} else {
		// A path's history still being counted: no total yet, but whether
		// more follows is exact.
		s.setUncountedPaging(q.w, q.r, page, list.More)
	}
	setPageHeaders(q.w, page, list.Total, list.More)
	q.json(http.StatusOK, out)
	return nil
}

// getCommitOrSHA answers GET R/commits/{sha}: the Commit, or only its id as
// text when the Accept header asks for the sha media type.
func (s repoCommits) getCommitOrSHA(q *request) error {
	accept := strings.ToLower(q.r.Header.Get("Accept"))
	for _, mt := range shaMediaTypes {
		if strings.Contains(accept, mt) {
			id, err := s.content.Commits().ID(q.r.Context(), q.repo, q.var_("sha"))
			if err != nil {
				return err
			}
			q.w.Header().Set("Content-Type", "text/plain;charset=utf-8")
			q.w.WriteHeader(http.StatusOK)
			_, _ = q.w.Write([]byte(id))
			return nil
		}
	}
	return s.getCommit(q, q.var_("sha"))
}

// getGitCommit answers GET R/git/commits/{sha}, and its .diff and .patch
// forms: the router's {sha} takes the suffix with it.
func (s repoCommits) getGitCommit(q *request) error {
	sha := q.var_("sha")
	if ref, ok := strings.CutSuffix(sha, ".diff"); ok {
		return s.writeCommitDiff(q, ref, ports.CommitDiffUnified)
	}
	if ref, ok := strings.CutSuffix(sha, ".patch"); ok {
		return s.writeCommitDiff(q, ref, ports.CommitDiffMbox)
	}
	return s.getCommit(q, sha)
}

func (s repoCommits) getCommit(q *request, ref string) error {
	fields, err := commitFields(q)
	if err != nil {
		return err
	}
	c, err := s.content.Commits().Get(q.r.Context(), q.repo, ref, fields)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toHistCommit(q.caller, q.repo, c))
	return nil
}

// writeCommitDiff streams a commit's diff or patch as text. The status goes
// out with the first bytes, so an error found before them (an absent
// commit) is still answered as an error.
func (s repoCommits) writeCommitDiff(q *request, ref string, format ports.CommitDiffFormat) error {
	w := &lazyTextWriter{w: q.w}
	if err := s.content.Commits().WriteDiff(q.r.Context(), q.repo, ref, format, w); err != nil {
		if w.started {
			// The status is sent; all that is left is to cut the answer short.
			s.log.Error("commit diff failed while streaming", "path", q.r.URL.Path, "err", err)
			return nil
		}
		return err
	}
	w.finish()
	return nil
}

// lazyTextWriter sends the text/plain status line with the first bytes.
type lazyTextWriter struct {
	w       http.ResponseWriter
	started bool
}

func (l *lazyTextWriter) start() {
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", "text/plain;charset=utf-8")
		l.w.WriteHeader(http.StatusOK)
	}
}

// Write starts the answer and passes p on.
func (l *lazyTextWriter) Write(p []byte) (int, error) {
	l.start()
	return l.w.Write(p)
}

// finish sends the status of an empty answer.
func (l *lazyTextWriter) finish() { l.start() }
