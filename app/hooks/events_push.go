package hooks

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// pushFacts reads from Git what a push event of change shows, as Gitea's
// push handling does: for a branch update the commits between the old and
// new heads, for a new branch the ten commits before its head; for a tag
// no commits, only the tagged commit as the head.
func (d *Dispatcher) pushFacts(ctx context.Context, p ports.RepoPath, r *repository.Repository,
	c repository.RefChange) (pushFacts, error) {
	f := pushFacts{ref: c.Ref, before: c.OldID, after: c.NewID}
	zero := strings.Repeat("0", max(len(c.OldID), len(c.NewID), len(zeroID)))
	if c.IsTag() {
		if c.IsDelete() {
			return f, nil
		}
		// A moved tag reads as a new one, as in Gitea.
		f.before, f.compareBase = zero, zero
		head, err := d.taggedCommit(ctx, p, c.NewID)
		f.head = head
		return f, err
	}
	extras := ports.CommitExtras{Files: true}
	if c.IsCreate() {
		list, _, err := d.git.ListCommits(ctx, p, ports.CommitListQuery{Ref: c.NewID, Extras: extras, SkipTotal: true},
			ports.ListOptions{Page: 1, Limit: maxNewBranchCommits})
		if err != nil {
			return f, err
		}
		f.total = len(list)
		f.compareBase = newBranchCompareBase(r, c, list)
		f.commits = list[:min(len(list), maxPayloadCommits)]
	} else {
		list, total, err := d.git.ListCommits(ctx, p, ports.CommitListQuery{Ref: c.NewID, Not: c.OldID, Extras: extras},
			ports.ListOptions{Page: 1, Limit: maxPayloadCommits})
		if err != nil {
			return f, err
		}
		f.commits, f.total, f.compareBase = list, int(total), c.OldID
	}
	if len(f.commits) > 0 && f.commits[0].ID == c.NewID {
		f.head = &f.commits[0]
		return f, nil
	}
	// A rewind (the new head is an ancestor of the old) lists no commits.
	head, err := d.git.CommitDetail(ctx, p, c.NewID, extras)
	if err != nil {
		return f, err
	}
	f.head = &head
	return f, nil
}

// newBranchCompareBase is where a new branch's compare link starts: the
// parent of the oldest commit counted, or the default branch when the
// branch has no older history, or nowhere for the default branch itself.
func newBranchCompareBase(r *repository.Repository, c repository.RefChange, list []ports.CommitDetail) string {
	if n := len(list); n > 0 && len(list[n-1].ParentIDs) > 0 {
		return list[n-1].ParentIDs[0]
	}
	if branch := c.ShortName(); r.DefaultBranch != "" && r.DefaultBranch != branch {
		return r.DefaultBranch
	}
	return ""
}

// taggedCommit is the commit a pushed tag names: id itself for a
// lightweight tag, the annotated tag's target otherwise. A tag of a tree
// or blob names none (nil).
func (d *Dispatcher) taggedCommit(ctx context.Context, p ports.RepoPath, id string) (*ports.CommitDetail, error) {
	extras := ports.CommitExtras{Files: true}
	c, err := d.git.CommitDetail(ctx, p, id, extras)
	if err == nil {
		return &c, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	tag, err := d.git.AnnotatedTag(ctx, p, id)
	if errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrBadRequest) || (err == nil && tag.CommitID == "") {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if c, err = d.git.CommitDetail(ctx, p, tag.CommitID, extras); err != nil {
		return nil, err
	}
	return &c, nil
}

// addresses are the commit authors' and committers' e-mail addresses.
func (f pushFacts) addresses() []string {
	var out []string
	add := func(d *ports.CommitDetail) {
		out = append(out, d.Author.Email, d.Committer.Email)
	}
	for i := range f.commits {
		add(&f.commits[i])
	}
	if f.head != nil {
		add(f.head)
	}
	return out
}
