package ports

import (
	"context"
	"io"

	"github.com/depothq/depot/domain/pull"
)

// MergeStatus is a pull request's mergeability (domain/pull's Status).
type MergeStatus = pull.Status

// The mergeability states, as GitPulls.CheckMerge reports them.
const (
	MergeChecking       = pull.StatusChecking
	MergeMergeable      = pull.StatusMergeable
	MergeConflict       = pull.StatusConflict
	MergeEmpty          = pull.StatusEmpty
	MergeAncestor       = pull.StatusAncestor
	MergeManuallyMerged = pull.StatusManuallyMerged
	MergeError          = pull.StatusError
)

// MergeCheck is the result of GitPulls.CheckMerge (domain/pull's Check):
// Status, MergeBase, ConflictedFiles (sorted, at most 100), CommitsAhead,
// CommitsBehind and the diff stats from the merge base to the head.
type MergeCheck = pull.Check

// GitMergeCommit is a commit a merge writes: its message and signatures.
type GitMergeCommit struct {
	Message   string
	Author    GitSignature
	Committer GitSignature
}

// RangeFile is one file changed between two commits, with its line counts.
type RangeFile struct {
	// Path is the file's path after the change; PreviousPath is set when it
	// was renamed (or copied) from another path.
	Path, PreviousPath string
	// Status is added, deleted, renamed, copied, changed, or unchanged for
	// a modified file that adds and deletes no line (a mode change, a
	// binary file): Gitea's words (services/convert ToChangedFile).
	Status               string
	Additions, Deletions int
	// Binary is set for a file git treats as binary (no line counts).
	Binary bool
}

// DiffWhitespace says which whitespace changes a diff ignores (Gitea's
// whitespace query values); "" and DiffShowAllWhitespace ignore none.
type DiffWhitespace string

// The whitespace modes.
const (
	DiffShowAllWhitespace      DiffWhitespace = "show-all"
	DiffIgnoreAllWhitespace    DiffWhitespace = "ignore-all"
	DiffIgnoreWhitespaceChange DiffWhitespace = "ignore-change"
	DiffIgnoreWhitespaceEOL    DiffWhitespace = "ignore-eol"
)

// RangeFileQuery selects the files GitPulls.RangeFiles lists.
type RangeFileQuery struct {
	// SkipTo starts the listing at the file with this path (Gitea's
	// skip-to): the files sorted before it are left out, and every file
	// when no file has that path. "" lists from the first file.
	SkipTo string
	// Whitespace is what the line counts ignore.
	Whitespace DiffWhitespace
	Page       ListOptions
}

// GitPulls is the part of the Git storage pull requests use. Commit ids
// are full hex ids; an absent commit or ref is errs.ErrNotFound. Nothing
// here needs a work tree: merges are computed in memory.
type GitPulls interface {
	// CopyRef makes ref toRef in repository to point at the commit fromRef
	// names in repository from, copying the objects it needs (the same
	// repository when from == to), and returns that commit. It is how
	// refs/pull/<index>/head follows a fork's branch. The move is forced.
	CopyRef(ctx context.Context, from RepoPath, fromRef string, to RepoPath, toRef string) (string, error)
	// UpdateRef moves ref to newID if it still points at oldID (compare and
	// swap; oldID "" means the ref must not exist). Otherwise it changes
	// nothing and returns errs.ErrConflict.
	UpdateRef(ctx context.Context, p RepoPath, ref, newID, oldID string) error
	// IsAncestor reports whether commit a is reachable from commit b (a
	// commit is its own ancestor).
	IsAncestor(ctx context.Context, p RepoPath, a, b string) (bool, error)
	// CheckMerge merges headID into baseID in memory and says whether that
	// would succeed, with the stats of the head's changes.
	CheckMerge(ctx context.Context, p RepoPath, baseID, headID string) (MergeCheck, error)
	// MergeCommits writes a merge commit whose parents are ours and theirs
	// (in that order) and whose tree is their in-memory merge, and returns
	// its id. Conflicts are errs.ErrConflict. No ref moves.
	MergeCommits(ctx context.Context, p RepoPath, ours, theirs string, c GitMergeCommit) (string, error)
	// SquashCommits writes one commit whose parent is base and whose tree is
	// the in-memory merge of head into base, and returns its id. Conflicts
	// are errs.ErrConflict. No ref moves.
	SquashCommits(ctx context.Context, p RepoPath, base, head string, c GitMergeCommit) (string, error)
	// RebaseCommits replays the commits reachable from head and not from
	// onto, oldest first, merges and those whose patch onto already has
	// (same patch id) left out (as git rebase does), on top of onto, each
	// keeping its author and message and taking committer as
	// committer, and returns the new tip (onto itself when nothing is left
	// to replay). A commit that does not apply is errs.ErrConflict. No ref moves.
	RebaseCommits(ctx context.Context, p RepoPath, onto, head string, committer GitSignature) (string, error)
	// WriteRangeDiff writes the changes from the merge base of baseID and
	// headID to headID: a unified diff (CommitDiffUnified), or one mbox mail
	// per commit in the range, oldest first, as git format-patch writes them
	// (CommitDiffMbox). It streams: memory does not grow with the diff.
	WriteRangeDiff(ctx context.Context, p RepoPath, baseID, headID string, format CommitDiffFormat, w io.Writer) error
	// RangeFiles returns one page of the files changed from the merge base
	// of baseID and headID to headID, sorted by path, and how many files
	// the listing holds in all (from q.SkipTo on). Renames are detected.
	// Only the page's line counts are computed.
	RangeFiles(ctx context.Context, p RepoPath, baseID, headID string, q RangeFileQuery) ([]RangeFile, int, error)
	// LineBlame returns the id of the commit that last changed line
	// (1-based) of path as it is at commitID (git blame -L line,line); a
	// path that is no file there, or a file with fewer lines, is
	// errs.ErrNotFound.
	LineBlame(ctx context.Context, p RepoPath, commitID, path string, line int64) (string, error)
	// RangeChanged reports whether moving a pull request's head from
	// oldHead to newHead changed what it proposes against baseID: some path
	// differs between the heads and, at newHead, from the merge base of
	// baseID and newHead (a head that only merged the base in did not).
	RangeChanged(ctx context.Context, p RepoPath, baseID, oldHead, newHead string) (bool, error)
}
