package ports

import (
	"context"
	"io"
	"time"
)

// GitHistory is the part of GitContent for commit listings, single commits, diffs and patches, compare.
type GitHistory interface {
	// ListCommits resolves q's refs and returns one page of the matching
	// commits, newest first in git log's order, and the count of all of
	// them. It walks only as far as the page needs; the count is cached per
	// (start commit, not, path, since, until), since commits never change.
	// An absent ref is errs.ErrNotFound.
	ListCommits(ctx context.Context, p RepoPath, q CommitListQuery, page ListOptions) ([]CommitDetail, int64, error)
	// CommitDetail resolves ref (a branch, tag or commit id) and returns its
	// commit with the extras asked for. Absent: errs.ErrNotFound.
	CommitDetail(ctx context.Context, p RepoPath, ref string, extras CommitExtras) (CommitDetail, error)
	// CommitSignatures returns the signatures of the commits ids names (full
	// ids), keyed by id; an unsigned commit has no entry, and an id that
	// names no commit is errs.ErrNotFound.
	CommitSignatures(ctx context.Context, p RepoPath, ids []string) (map[string]*CommitSignature, error)
	// CompareCommits resolves base and head and returns the commits
	// reachable from head but not from base, newest first, and the files
	// changed from base (direct) or from the merge base of both (not direct)
	// to head. An absent side is errs.ErrNotFound.
	CompareCommits(ctx context.Context, p RepoPath, base, head string, direct bool, extras CommitExtras) (CommitComparison, error)
	// WriteCommitDiff resolves ref and writes its changes against its first
	// parent (or the empty tree for a root commit) to w: a unified diff that
	// git apply accepts, or an mbox patch that git am accepts. Errors before
	// the first byte is written leave w untouched (absent ref:
	// errs.ErrNotFound).
	WriteCommitDiff(ctx context.Context, p RepoPath, ref string, format CommitDiffFormat, w io.Writer) error
}

// CommitListQuery selects the commits of a listing.
type CommitListQuery struct {
	// Ref is the branch, tag or commit to start from; "" is HEAD's branch.
	Ref string
	// Not, when set, excludes the commits reachable from this ref.
	Not string
	// Path, when set, keeps only the commits that changed it, with git log's
	// history simplification. It must already be clean (no leading slash,
	// no "." or ".." segment).
	Path string
	// Since and Until, when not zero, keep the commits whose committer date
	// is in [Since, Until]; as in git log, the walk does not go past a commit
	// older than Since.
	Since, Until time.Time
	// Extras are what to compute for each commit of the page.
	Extras CommitExtras
	// SkipTotal leaves the total uncounted (reported as -1) when the caller
	// needs only the page: counting may walk the whole history.
	SkipTotal bool
	// CountBudget, when set, bounds the time spent counting beyond the
	// page: past it the count is finished in the background, and until then
	// the total may be reported as -1, in which case the page holds one
	// commit more than asked when more follow (the caller drops it).
	CountBudget time.Duration
}

// CommitExtras says what to compute beyond a commit's metadata.
type CommitExtras struct {
	// Stats counts added and deleted lines against the first parent.
	Stats bool
	// Files lists the files changed against the first parent.
	Files bool
	// Signature extracts the commit's signature, if any.
	Signature bool
}

// CommitDetail is a commit with what CommitExtras asked for.
type CommitDetail struct {
	GitCommitInfo
	// Signature is the commit's signature and signed payload, nil when the
	// commit is unsigned or it was not asked for.
	Signature *CommitSignature
	// Files are the changed files, sorted by path, when asked for.
	Files []CommitFileChange
	// Stats are the line counts, when asked for.
	Stats *CommitDiffStats
}

// CommitSignature is a signed commit's signature block and the bytes it signs.
type CommitSignature struct {
	Signature, Payload string
}

// CommitFileStatus is how a commit changed a file.
type CommitFileStatus string

// The statuses of a changed file, in Gitea's words.
const (
	CommitFileAdded    CommitFileStatus = "added"
	CommitFileRemoved  CommitFileStatus = "removed"
	CommitFileModified CommitFileStatus = "modified"
)

// CommitFileChange is one file a commit changed. Renames are not detected:
// a renamed file is removed under its old path and added under the new one.
type CommitFileChange struct {
	Path   string
	Status CommitFileStatus
}

// CommitDiffStats are the lines a commit added and deleted, with renames detected.
type CommitDiffStats struct {
	Additions, Deletions int
}

// CommitComparison is what CompareCommits found.
type CommitComparison struct {
	// BaseID and HeadID are the resolved commits; MergeBaseID is their merge
	// base ("" when they share no history).
	BaseID, HeadID, MergeBaseID string
	// Commits are the newest of them, at most 250 (as GitHub's compare);
	// TotalCommits counts them all.
	Commits      []CommitDetail
	TotalCommits int
	Files        []CommitFileChange
}

// CommitDiffFormat is the text WriteCommitDiff produces.
type CommitDiffFormat string

// The formats of WriteCommitDiff.
const (
	CommitDiffUnified CommitDiffFormat = "diff"
	CommitDiffMbox    CommitDiffFormat = "patch"
)
