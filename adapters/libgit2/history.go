package libgit2

import (
	"context"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// maxCompareCommits bounds the commits a comparison renders, as GitHub's
// compare does (250); the total is still exact.
const maxCompareCommits = 250

// ListCommits returns one page of the commits q selects, and their count
// (ports.GitHistory).
func (s *Storage) ListCommits(ctx context.Context, p ports.RepoPath, q ports.CommitListQuery, page ports.ListOptions) ([]ports.CommitDetail, int64, error) {
	dir, err := s.repoDir(p)
	if err != nil {
		return nil, 0, err
	}
	var (
		out   []ports.CommitDetail
		total int64
	)
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		out, total, err = s.listCommits(ctx, p, repo, dir, q, page)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// listCommits implements ListCommits on p's open repository in dir.
func (s *Storage) listCommits(ctx context.Context, p ports.RepoPath, repo *git.Repository, dir string, q ports.CommitListQuery,
	page ports.ListOptions) ([]ports.CommitDetail, int64, error) {
	var err error
	f := walkFilter{path: q.Path, since: q.Since, until: q.Until}
	if f.start, err = resolveOid(repo, q.Ref); err != nil {
		return nil, 0, err
	}
	if q.Not != "" {
		if f.not, err = resolveOid(repo, q.Not); err != nil {
			return nil, 0, err
		}
	}
	var allowed map[git.Oid]struct{}
	if f.not != nil {
		// The commits reachable from start but not from not: libgit2's
		// walk stops as soon as only hidden commits are left, so a short
		// range costs little whatever the repository's size.
		if allowed, err = reachable(repo, f.start, f.not); err != nil {
			return nil, 0, err
		}
	}

	if f.pathOnly() && !q.SkipTotal {
		return s.listPath(ctx, p, repo, dir, f, q, page)
	}
	total := int64(-1)
	if !q.SkipTotal {
		if total, err = s.countFor(ctx, repo, dir, f, allowed); err != nil {
			return nil, 0, err
		}
	}

	w := newCommitWalker(repo, f, allowed)
	defer w.free()
	if err := w.push(f.start); err != nil {
		return nil, 0, err
	}
	out, err := appendCommits(ctx, repo, w, make([]ports.CommitDetail, 0, pageCap(page.Limit, total)), page.Offset(), page.Limit, q.Extras)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// CommitDetail returns one commit with its extras (ports.GitHistory).
func (s *Storage) CommitDetail(ctx context.Context, p ports.RepoPath, ref string, extras ports.CommitExtras) (ports.CommitDetail, error) {
	var d ports.CommitDetail
	err := s.withCommit(ctx, p, ref, func(repo *git.Repository, c *git.Commit) error {
		var err error
		d, err = commitDetail(repo, c, extras)
		return err
	})
	return d, err
}

// CommitSignatures reads the signatures of ids' commits from one open
// repository (ports.GitHistory).
func (s *Storage) CommitSignatures(ctx context.Context, p ports.RepoPath, ids []string) (map[string]*ports.CommitSignature, error) {
	out := make(map[string]*ports.CommitSignature, len(ids))
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		for _, id := range ids {
			if _, done := out[id]; done {
				continue
			}
			c, err := lookupCommit(repo, id)
			if err != nil {
				return err
			}
			d, err := commitDetail(repo, c, ports.CommitExtras{Signature: true})
			c.Free()
			if err != nil {
				return err
			}
			if d.Signature != nil {
				out[id] = d.Signature
			}
		}
		return nil
	})
	return out, err
}

// CompareCommits lists what head has that base has not (ports.GitHistory).
func (s *Storage) CompareCommits(ctx context.Context, p ports.RepoPath, base, head string, direct bool, extras ports.CommitExtras) (ports.CommitComparison, error) {
	var cmp ports.CommitComparison
	err := s.withCommit(ctx, p, base, func(repo *git.Repository, baseCommit *git.Commit) error {
		var err error
		cmp, err = compareCommits(ctx, repo, baseCommit, head, direct, extras)
		return err
	})
	return cmp, err
}

// compareCommits implements CompareCommits on an open repository, from
// base's commit.
func compareCommits(ctx context.Context, repo *git.Repository, baseCommit *git.Commit, head string, direct bool,
	extras ports.CommitExtras) (ports.CommitComparison, error) {
	headCommit, err := resolveCommit(repo, head)
	if err != nil {
		return ports.CommitComparison{}, err
	}
	defer headCommit.Free()

	cmp := ports.CommitComparison{BaseID: baseCommit.Id().String(), HeadID: headCommit.Id().String()}
	from := baseCommit
	mb, err := repo.MergeBase(baseCommit.Id(), headCommit.Id())
	switch {
	case err == nil:
		cmp.MergeBaseID = mb.String()
		if !direct && !mb.Equal(baseCommit.Id()) {
			if from, err = repo.LookupCommit(mb); err != nil {
				return ports.CommitComparison{}, fmt.Errorf("libgit2: look up merge base: %w", err)
			}
			defer from.Free()
		}
	case git.IsErrorCode(err, git.ErrorCodeNotFound):
		// Unrelated histories: compare with base itself, as Gitea does.
	default:
		return ports.CommitComparison{}, fmt.Errorf("libgit2: merge base: %w", err)
	}

	allowed, err := reachable(repo, headCommit.Id(), baseCommit.Id())
	if err != nil {
		return ports.CommitComparison{}, err
	}
	cmp.TotalCommits = len(allowed)
	w := newCommitWalker(repo, walkFilter{}, allowed)
	defer w.free()
	if len(allowed) > 0 {
		if err := w.push(headCommit.Id()); err != nil {
			return ports.CommitComparison{}, err
		}
	}
	if cmp.Commits, err = appendCommits(ctx, repo, w, nil, 0, maxCompareCommits, extras); err != nil {
		return ports.CommitComparison{}, err
	}
	if cmp.Files, err = changedFilesBetween(repo, from, headCommit); err != nil {
		return ports.CommitComparison{}, err
	}
	return cmp, nil
}

// resolveOid resolves ref to its commit's id.
func resolveOid(repo *git.Repository, ref string) (*git.Oid, error) {
	rev, err := resolve(repo, ref)
	if err != nil {
		return nil, err
	}
	id, err := git.NewOid(rev.CommitID)
	if err != nil {
		return nil, fmt.Errorf("libgit2: commit id %s: %w", rev.CommitID, err)
	}
	return id, nil
}

// appendCommits appends to out the commits w walks, with their extras,
// after skipping the first skip, until out holds limit. It looks for
// cancellation every 256 commits skipped and before each commit it reads.
func appendCommits(ctx context.Context, repo *git.Repository, w *commitWalker, out []ports.CommitDetail, skip, limit int, extras ports.CommitExtras) ([]ports.CommitDetail, error) {
	for i := 0; len(out) < limit; i++ {
		if skip == 0 || i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c, err := w.next()
		if err != nil {
			return nil, err
		}
		if c == nil {
			break
		}
		if skip > 0 {
			skip--
			c.Free()
			continue
		}
		if out, err = appendDetail(repo, out, c, extras); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendDetail appends c, with extras, to out and frees it.
func appendDetail(repo *git.Repository, out []ports.CommitDetail, c *git.Commit, extras ports.CommitExtras) ([]ports.CommitDetail, error) {
	d, err := commitDetail(repo, c, extras)
	c.Free()
	if err != nil {
		return nil, err
	}
	return append(out, d), nil
}

// commitDetail copies c out of libgit2 with the extras asked for.
func commitDetail(repo *git.Repository, c *git.Commit, extras ports.CommitExtras) (ports.CommitDetail, error) {
	d := ports.CommitDetail{GitCommitInfo: commitInfo(c)}
	if extras.Signature {
		sig, signed, err := c.ExtractSignature()
		switch {
		case err == nil:
			d.Signature = &ports.CommitSignature{Signature: sig, Payload: signed}
		case git.IsErrorCode(err, git.ErrorCodeNotFound):
		default:
			return d, fmt.Errorf("libgit2: extract signature of %s: %w", d.ID, err)
		}
	}
	if !extras.Files && !extras.Stats {
		return d, nil
	}
	diff, err := diffWithParent(repo, c, 0)
	if err != nil {
		return d, err
	}
	defer diff.Free()
	if extras.Files {
		if d.Files, err = changedFiles(diff); err != nil {
			return d, err
		}
	}
	if extras.Stats {
		st, err := diffStats(diff)
		if err != nil {
			return d, err
		}
		d.Stats = &st
	}
	return d, nil
}

// reachable returns the commits reachable from start but not from hide.
func reachable(repo *git.Repository, start, hide *git.Oid) (map[git.Oid]struct{}, error) {
	walk, err := repo.Walk()
	if err != nil {
		return nil, fmt.Errorf("libgit2: revwalk: %w", err)
	}
	defer walk.Free()
	walk.Sorting(git.SortNone)
	if err := walk.Push(start); err != nil {
		return nil, fmt.Errorf("libgit2: revwalk push: %w", err)
	}
	if err := walk.Hide(hide); err != nil {
		return nil, fmt.Errorf("libgit2: revwalk hide: %w", err)
	}
	set := map[git.Oid]struct{}{}
	var id git.Oid
	for {
		err := walk.Next(&id)
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			return set, nil
		}
		if err != nil {
			return nil, fmt.Errorf("libgit2: revwalk: %w", err)
		}
		set[id] = struct{}{}
	}
}

// pageCap is the capacity a page of limit commits needs when total (-1:
// not counted) commits match.
func pageCap(limit int, total int64) int {
	if total < 0 {
		return limit
	}
	return min(limit, int(total))
}
