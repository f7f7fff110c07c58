package http

import (
	"encoding/base64"
	"errors"
	"net/url"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// repoContents serves the contents read routes: a file, directory, link or
// submodule at a ref (catalogue 4.5; the writes are repoChanges').
type repoContents struct{ *kernel }

// contentRoutes are the rows of repoContents.
func (s *kernel) contentRoutes() []route {
	h := repoContents{s}
	return []route{
		{"GET", R + "/contents", scopes(catRepo), "RR(code)", h.getContents},
		{"GET", R + "/contents/{filepath:.*}", scopes(catRepo), "RR(code)", h.getContents},
	}
}

// getContents answers GET R/contents[/{filepath}]: a file, link or
// submodule as one ContentsResponse, a directory as a list of them.
func (s repoContents) getContents(q *request) error {
	res, err := s.content.Contents().Get(q.r.Context(), q.repo, refParam(q), q.var_("filepath"))
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

// contentsMissing words a path absent from the tree as Gitea 1.27's
// contents route does: the error of GetTreeEntryByPath, git's ErrNotExist
// ("object does not exist [id: %s, rel_path: %s]", with no object id for a
// path looked up in a tree). Other errors pass.
func contentsMissing(err error) error {
	var missing *ports.MissingPathError
	if errors.As(err, &missing) {
		return errs.NotFound("object does not exist [id: , rel_path: " + missing.Path + "]")
	}
	return err
}

// fileLinksDTO is Gitea's FileLinksResponse.
type fileLinksDTO struct {
	Self    *string `json:"self"`
	GitURL  *string `json:"git"`
	HTMLURL *string `json:"html"`
}

// contentsDTO is Gitea's ContentsResponse: one file, directory, symbolic
// link or submodule at a ref.
type contentsDTO struct {
	Name              string        `json:"name"`
	Path              string        `json:"path"`
	SHA               string        `json:"sha"`
	LastCommitSHA     *string       `json:"last_commit_sha,omitempty"`
	LastCommitterDate *time.Time    `json:"last_committer_date,omitempty"`
	LastAuthorDate    *time.Time    `json:"last_author_date,omitempty"`
	LastCommitMessage *string       `json:"last_commit_message,omitempty"`
	Type              string        `json:"type"`
	Size              int64         `json:"size"`
	Encoding          *string       `json:"encoding"`
	Content           *string       `json:"content"`
	Target            *string       `json:"target"`
	URL               *string       `json:"url"`
	HTMLURL           *string       `json:"html_url"`
	GitURL            *string       `json:"git_url"`
	DownloadURL       *string       `json:"download_url"`
	SubmoduleGitURL   *string       `json:"submodule_git_url"`
	Links             *fileLinksDTO `json:"_links"`
}

// webRef is how the web addresses a revision: "branch/main", "tag/v1",
// "commit/<sha>".
func webRef(rev ports.GitRevision) string {
	switch rev.Kind {
	case ports.RevisionBranch:
		return "branch/" + escapePath(rev.Name)
	case ports.RevisionTag:
		return "tag/" + escapePath(rev.Name)
	}
	return "commit/" + rev.CommitID
}

// toContents renders e, read at rev, as Gitea does. The content (base64) is
// included for files when withContent is set; directory listings leave it
// out, as Gitea does.
func (s *kernel) toContents(a *repos.Access, rev ports.GitRevision, e ports.GitEntry, withContent bool) contentsDTO {
	api := s.repoAPIURL(a.Repo)
	html := s.repoWebURL(a.Repo)
	ref := rev.Name
	if ref == "" {
		ref = rev.CommitID
	}
	self := api + "/contents/" + escapePath(e.Path) + "?ref=" + url.QueryEscape(ref)
	d := contentsDTO{Name: e.Name, Path: e.Path, SHA: e.ID, Type: string(e.Type), Size: e.Size, URL: &self}
	var gitURL, htmlURL string
	switch e.Type {
	case ports.EntryDir:
		gitURL = api + "/git/trees/" + e.ID
		htmlURL = html + "/src/" + webRef(rev) + "/" + escapePath(e.Path)
	case ports.EntrySubmodule:
		u := e.SubmoduleURL
		d.SubmoduleGitURL = &u
		htmlURL = html + "/src/" + webRef(rev) + "/" + escapePath(e.Path)
	default:
		gitURL = api + "/git/blobs/" + e.ID
		htmlURL = html + "/src/" + webRef(rev) + "/" + escapePath(e.Path)
		download := html + "/raw/" + webRef(rev) + "/" + escapePath(e.Path)
		d.DownloadURL = &download
	}
	d.HTMLURL = &htmlURL
	if gitURL != "" {
		d.GitURL = &gitURL
	}
	d.Links = &fileLinksDTO{Self: &self, GitURL: d.GitURL, HTMLURL: &htmlURL}
	switch e.Type {
	case ports.EntryFile:
		if withContent {
			enc, content := "base64", base64.StdEncoding.EncodeToString(e.Content)
			d.Encoding, d.Content = &enc, &content
		}
	case ports.EntrySymlink:
		t := e.Target
		d.Target = &t
	}
	if c := e.LastCommit; c != nil {
		sha, msg := c.ID, c.Message
		ad, cd := c.Author.When.UTC(), c.Committer.When.UTC()
		d.LastCommitSHA, d.LastCommitMessage, d.LastAuthorDate, d.LastCommitterDate = &sha, &msg, &ad, &cd
	}
	return d
}
