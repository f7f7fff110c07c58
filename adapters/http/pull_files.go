package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/ports"
)

// pullFiles serves comparing a pull request (catalogue 4.5): its diff and
// patch, its changed files and its commits. Reading them needs the pulls
// unit and the code unit of the base repository only: the head commit is
// kept there (refs/pull/<index>/head), even for a private fork.
type pullFiles struct{ *kernel }

// diffTruncatedHeader says a listing or a diff was cut at a site bound
// (site.Settings.PullMaxFiles, PullDiffMaxLines). On the file listing it
// is a header, with X-Total-Count still counting every file; on .diff and
// .patch it is an HTTP trailer, since the cut is found while streaming.
const diffTruncatedHeader = "X-Service-Diff-Truncated"

// pullFileRoutes are the rows of pullFiles. The .diff and .patch rows
// need no order: the pull request rows' {index:[0-9]+} does not match
// "5.diff", and these match nothing else.
func (s *kernel) pullFileRoutes() []route {
	h := pullFiles{s}
	return []route{
		{"GET", R + "/pulls/{index:[0-9]+}.diff", scopes(catRepo), "Pulls,RR(code)", h.pullDiff},
		{"GET", R + "/pulls/{index:[0-9]+}.patch", scopes(catRepo), "Pulls,RR(code)", h.pullPatch},
		{"GET", R + "/pulls/{index}/files", scopes(catRepo), "Pulls,RR(code)", h.listPullFiles},
		{"GET", R + "/pulls/{index}/commits", scopes(catRepo), "Pulls,RR(code)", h.listPullCommits},
	}
}

// pullDiff answers GET R/pulls/{index}.diff.
func (s pullFiles) pullDiff(q *request) error { return s.writePullDiff(q, ports.CommitDiffUnified) }

// pullPatch answers GET R/pulls/{index}.patch.
func (s pullFiles) pullPatch(q *request) error { return s.writePullDiff(q, ports.CommitDiffMbox) }

// writePullDiff streams a pull request's diff or patch as text. Gitea's
// binary flag is checked and accepted; binary files are named, not
// shown, either way (as git diff without --binary prints them). The
// whitespace option of the file listing is not read here: Gitea's .diff
// and .patch run git without it, so they show every change whatever the
// query says.
func (s pullFiles) writePullDiff(q *request, format ports.CommitDiffFormat) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	if _, err := queryBool(q, "binary"); err != nil {
		return err
	}
	if s.settings.PullDiffMaxLines > 0 {
		q.w.Header().Set("Trailer", diffTruncatedHeader)
	}
	w := &lazyTextWriter{w: q.w}
	truncated, err := s.pulls.WriteDiff(q.r.Context(), q.repo, index, format, w)
	if err != nil {
		if w.started {
			// The status is sent; all that is left is to cut the answer short.
			s.log.Error("pull request diff failed while streaming", "path", q.r.URL.Path, "err", err)
			return nil
		}
		q.w.Header().Del("Trailer")
		return err
	}
	w.finish()
	if truncated {
		q.w.Header().Set(diffTruncatedHeader, "true")
	}
	return nil
}

// changedFileDTO is Gitea's ChangedFile.
type changedFileDTO struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename,omitempty"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	HTMLURL          string `json:"html_url"`
	ContentsURL      string `json:"contents_url"`
	RawURL           string `json:"raw_url"`
}

// listPullFiles answers GET R/pulls/{index}/files: one page of the changed
// files with Gitea's paging headers; past site.Settings.PullMaxFiles the
// listing stops, X-Service-Diff-Truncated says so and X-Total-Count keeps
// the full count (the pages and links reach the listed files only).
func (s pullFiles) listPullFiles(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	page, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	in, err := pullFileQuery(q)
	if err != nil {
		return err
	}
	in.Page = page
	list, err := s.pulls.Files(q.r.Context(), q.repo, index, in)
	if err != nil {
		return err
	}
	out := make([]changedFileDTO, len(list.Files))
	web, api := s.repoWebURL(list.Repo), s.repoAPIURL(list.Repo)
	for i, f := range list.Files {
		p := escapePath(f.Path)
		out[i] = changedFileDTO{Filename: f.Path, Status: f.Status, Additions: f.Additions,
			Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL:     web + "/src/commit/" + list.CommitID + "/" + p,
			ContentsURL: api + "/contents/" + p + "?ref=" + list.CommitID,
			RawURL:      web + "/raw/commit/" + list.CommitID + "/" + p}
		if f.Status == "renamed" {
			out[i].PreviousFilename = f.PreviousPath
		}
	}
	s.setPaging(q.w, q.r, page, int64(list.Listed))
	setPageHeaders(q.w, page, int64(list.Listed), false)
	q.w.Header().Set("X-Total-Count", strconv.Itoa(list.Total))
	if list.Truncated {
		q.w.Header().Set(diffTruncatedHeader, "true")
	}
	q.json(http.StatusOK, out)
	return nil
}

// pullFileQuery reads the file listing's skip-to and whitespace options
// (400 for a whitespace value Gitea does not have).
func pullFileQuery(q *request) (pulls.FileQuery, error) {
	params := q.r.URL.Query()
	ws, err := pulls.ParseWhitespace(params.Get("whitespace"))
	if err != nil {
		return pulls.FileQuery{}, err
	}
	return pulls.FileQuery{SkipTo: params.Get("skip-to"), Whitespace: ws}, nil
}

// listPullCommits answers GET R/pulls/{index}/commits: one page of the
// commits the pull request brings, newest first, with Gitea's verification
// and files options (stat is always on, as in Gitea) and paging headers.
func (s pullFiles) listPullCommits(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	page, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	fields, err := commitFields(q)
	if err != nil {
		return err
	}
	fields.Stat = true
	list, err := s.pulls.Commits(q.r.Context(), q.repo, index, fields, page)
	if err != nil {
		return err
	}
	out := make([]histCommitDTO, len(list.Commits))
	for i, c := range list.Commits {
		out[i] = s.toHistCommit(q.caller, q.repo, c)
	}
	s.setPaging(q.w, q.r, page, list.Total)
	setPageHeaders(q.w, page, list.Total, list.More)
	q.json(http.StatusOK, out)
	return nil
}
