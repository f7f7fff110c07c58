package ports

import (
	"context"

	"github.com/depothq/depot/domain/repository"
)

// GitChangeTarget says where a write reads from and commits to, and who
// signs it. Dates left zero are the time of the write.
type GitChangeTarget struct {
	// Branch is read from; it must exist unless the repository has no
	// branch at all, in which case the write creates it.
	Branch string
	// NewBranch, when set and not Branch, is created from Branch's tip and
	// receives the commit; it must not exist yet.
	NewBranch string
	// Message is the full commit message.
	Message   string
	Author    GitSignature
	Committer GitSignature
}

// Target is the branch the commit goes to.
func (t GitChangeTarget) Target() string {
	if t.NewBranch != "" {
		return t.NewBranch
	}
	return t.Branch
}

// GitChangeSet is a write of several files as one commit.
type GitChangeSet struct {
	GitChangeTarget
	// Changes are checked (repository.CheckFileChanges) and touch distinct paths.
	Changes []repository.FileChange
}

// GitPatchSet is a unified diff (as git diff or git format-patch writes it)
// applied as one commit.
type GitPatchSet struct {
	GitChangeTarget
	Patch []byte
	// MaxFiles is the most files the patch may change (the site's bound on
	// a contents write); 0 means no bound.
	MaxFiles int
}

// GitChangeResult is what a write committed.
type GitChangeResult struct {
	// Branch is where the commit went.
	Branch string
	Commit GitCommitInfo
	// Entries are, for each change in order, the file now at its Path, with
	// its content; nil for a deletion. A diff patch leaves it empty.
	Entries []*GitEntry
	// WasEmpty is set when the repository had no branch before this write.
	WasEmpty bool
}

// GitChanges is the part of GitContent for writing file changes and patches
// as commits. The commit is built on the tip the write read and the branch
// moves only if it still points there (compare-and-swap); a write that lost
// the race is tried again on the new tip a bounded number of times while it
// still applies, and is otherwise refused with errs.ErrConflict.
type GitChanges interface {
	// ChangeFiles commits cs. A stale SHA or an existing file where one is
	// created is errs.ErrInvalid; an absent branch or file errs.ErrNotFound.
	ChangeFiles(ctx context.Context, p RepoPath, cs GitChangeSet) (GitChangeResult, error)
	// ApplyPatch commits the result of applying ps.Patch to ps.Branch's tree.
	// A malformed diff, or one touching a path that may not be written, is
	// errs.ErrInvalid; a diff that does not apply errs.ErrConflict.
	ApplyPatch(ctx context.Context, p RepoPath, ps GitPatchSet) (GitChangeResult, error)
}
