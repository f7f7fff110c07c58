package pulls

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// compareRange is what comparing a pull request compares: the commit its
// changes are measured from (the base branch's tip, whose merge base with
// the head the Git side finds, or for a merged pull request the merge base
// stored when it merged) and the head commit refs/pull/<index>/head names.
// The head lives in the base repository, so a private fork's changes show
// to whoever reads the base.
type compareRange struct {
	pull         *pull.PullRequest
	base, head   string
	baseRepoPath ports.RepoPath
}

// rangeOf opens pull request index of a's repository and finds its range.
func (s *Service) rangeOf(ctx context.Context, a *repos.Access, index int64) (compareRange, error) {
	_, p, err := s.Open(ctx, a, index)
	if err != nil {
		return compareRange{}, err
	}
	r := compareRange{pull: p, head: p.HeadCommitID, baseRepoPath: pathOf(a.Repo)}
	if p.HasMerged && p.MergeBase != "" {
		r.base = p.MergeBase
	} else {
		b, err := s.git.Branch(ctx, r.baseRepoPath, p.BaseBranch)
		switch {
		case err == nil:
			r.base = b.Commit.ID
		case errors.Is(err, errs.ErrNotFound):
			// The base branch is gone: what was last checked still says
			// where the head left it.
			r.base = p.MergeBase
		default:
			return compareRange{}, err
		}
	}
	if r.base == "" || r.head == "" {
		return compareRange{}, errs.NotFound("pull request has no commits to compare")
	}
	return r, nil
}

// WriteDiff writes pull request index's changes as a unified diff or one
// mail per commit (format-patch), streaming them from Git. With a site
// bound on lines (site.Settings.PullDiffMaxLines) the stream stops at the
// end of the line that reaches it and truncated says so. Nothing is
// written when it fails before the first byte.
func (s *Service) WriteDiff(ctx context.Context, a *repos.Access, index int64, format ports.CommitDiffFormat,
	w io.Writer) (truncated bool, err error) {
	r, err := s.rangeOf(ctx, a, index)
	if err != nil {
		return false, err
	}
	if s.settings.PullDiffMaxLines <= 0 {
		return false, s.pulls.WriteRangeDiff(ctx, r.baseRepoPath, r.base, r.head, format, w)
	}
	lw := &lineLimitWriter{w: w, left: s.settings.PullDiffMaxLines}
	err = s.pulls.WriteRangeDiff(ctx, r.baseRepoPath, r.base, r.head, format, lw)
	if lw.cut && (err == nil || errors.Is(err, errLinesCut)) {
		return true, nil
	}
	return false, err
}

// errLinesCut stops a stream that reached its bound on lines.
var errLinesCut = errors.New("pulls: diff cut at its bound on lines")

// lineLimitWriter passes on at most left lines, then refuses the rest.
type lineLimitWriter struct {
	w    io.Writer
	left int
	cut  bool
}

// Write passes p on up to the end of the last line allowed.
func (l *lineLimitWriter) Write(p []byte) (int, error) {
	if l.cut {
		return 0, errLinesCut
	}
	n := 0
	for n < len(p) {
		i := bytes.IndexByte(p[n:], '\n')
		if i < 0 {
			// A line without its end yet: it still counts as the one
			// being written.
			break
		}
		n += i + 1
		l.left--
		if l.left == 0 {
			l.cut = true
			if _, err := l.w.Write(p[:n]); err != nil {
				return 0, err
			}
			if n < len(p) {
				return n, errLinesCut
			}
			return n, nil
		}
	}
	return l.w.Write(p)
}

// FileQuery selects a page of a pull request's changed files: Gitea's
// skip-to and whitespace options, and the page.
type FileQuery struct {
	SkipTo     string
	Whitespace ports.DiffWhitespace
	Page       ports.ListOptions
}

// FileList is a page of a pull request's changed files.
type FileList struct {
	Files []ports.RangeFile
	// Total counts every changed file (from SkipTo on); Listed is how many
	// the listing reaches, at most site.Settings.PullMaxFiles, and
	// Truncated says that bound left files out.
	Total, Listed int
	Truncated     bool
	// Repo and CommitID are where the files' links point: the head
	// repository (the base when the head's is gone) at the head commit.
	Repo     *repository.Repository
	CommitID string
}

// ParseWhitespace checks Gitea's whitespace query value ("" is show-all).
func ParseWhitespace(v string) (ports.DiffWhitespace, error) {
	switch w := ports.DiffWhitespace(v); w {
	case "", ports.DiffShowAllWhitespace:
		return ports.DiffShowAllWhitespace, nil
	case ports.DiffIgnoreAllWhitespace, ports.DiffIgnoreWhitespaceChange, ports.DiffIgnoreWhitespaceEOL:
		return w, nil
	}
	return "", errs.BadRequest("whitespace: must be one of ignore-all, ignore-change, ignore-eol, show-all")
}

// Files lists one page of the files pull request index changes, with
// their line counts (computed for the page only).
func (s *Service) Files(ctx context.Context, a *repos.Access, index int64, q FileQuery) (FileList, error) {
	r, err := s.rangeOf(ctx, a, index)
	if err != nil {
		return FileList{}, err
	}
	maxFiles := s.settings.PullMaxFiles
	if maxFiles <= 0 {
		maxFiles = site.Defaults().PullMaxFiles
	}
	page := q.Page.Clamped()
	out := FileList{Repo: a.Repo, CommitID: r.head}
	files, total, err := s.pulls.RangeFiles(ctx, r.baseRepoPath, r.base, r.head,
		ports.RangeFileQuery{SkipTo: q.SkipTo, Whitespace: q.Whitespace, Page: page})
	if err != nil {
		return FileList{}, err
	}
	out.Total, out.Listed = total, min(total, maxFiles)
	out.Truncated = total > maxFiles
	// The files past the bound are left out of the page they fall in.
	if keep := out.Listed - page.Offset(); keep < len(files) {
		files = files[:max(keep, 0)]
	}
	out.Files = files
	if r.pull.HeadRepoID != 0 && r.pull.HeadRepoID != a.Repo.ID {
		heads, err := s.stores.Repos.GetByIDs(ctx, []int64{r.pull.HeadRepoID})
		if err != nil {
			return FileList{}, err
		}
		if h := heads[r.pull.HeadRepoID]; h != nil {
			out.Repo = h
		}
	}
	return out, nil
}

// Commits lists one page of the commits pull request index brings, newest
// first: those of its head that the base (for a merged one, its merge
// base) does not have.
func (s *Service) Commits(ctx context.Context, a *repos.Access, index int64, fields content.CommitFieldOptions,
	page ports.ListOptions) (content.CommitList, error) {
	r, err := s.rangeOf(ctx, a, index)
	if err != nil {
		return content.CommitList{}, err
	}
	return s.content.Commits().List(ctx, a, content.CommitListQuery{Ref: r.head, Not: r.base,
		CommitFieldOptions: fields, Page: page})
}
