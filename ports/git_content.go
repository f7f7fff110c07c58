package ports

import "context"

// GitContent is everything the content use cases read from and write to a
// repository's Git objects: references, history, trees and blobs, archives,
// file changes and analyses. The libgit2 adapter implements all of it; each
// part is its own interface so that a use case names only what it needs.
type GitContent interface {
	GitResolver
	GitRefs
	GitHistory
	GitTrees
	GitArchives
	GitChanges
	GitWiki
}

// RevisionKind says what a user-supplied ref named.
type RevisionKind string

// The kinds of revision a ref can name.
const (
	RevisionBranch RevisionKind = "branch"
	RevisionTag    RevisionKind = "tag"
	RevisionCommit RevisionKind = "commit"
)

// GitRevision is a ref resolved to a commit.
type GitRevision struct {
	Kind RevisionKind
	// Name is the short branch or tag name, or the commit id as given.
	Name string
	// CommitID is the 40-hex id of the commit (an annotated tag is peeled).
	CommitID string
}

// GitCommitInfo is a commit's metadata.
type GitCommitInfo struct {
	ID        string
	TreeID    string
	ParentIDs []string
	Author    GitSignature
	Committer GitSignature
	// Message is the full message, with its trailing newline.
	Message string
}

// GitResolver turns what users type into commits.
type GitResolver interface {
	// Resolve resolves ref: a branch, then a tag, then a full or abbreviated
	// (at least 7 hex digits) commit id; an empty ref is HEAD's branch.
	// Absent: errs.ErrNotFound.
	Resolve(ctx context.Context, p RepoPath, ref string) (GitRevision, error)
	// ResolvePrefix splits "<ref>/<path>" where the ref itself may contain
	// slashes: the longest branch, then tag, matching a leading part wins,
	// then a commit id as the first segment. It returns the revision and the
	// rest of the path (maybe empty).
	ResolvePrefix(ctx context.Context, p RepoPath, refAndPath string) (GitRevision, string, error)
	// Commit returns the commit's metadata.
	Commit(ctx context.Context, p RepoPath, id string) (GitCommitInfo, error)
}

// EntryType is what a tree entry is, in the contents API's words.
type EntryType string

// The entry types of the contents API.
const (
	EntryFile      EntryType = "file"
	EntryDir       EntryType = "dir"
	EntrySymlink   EntryType = "symlink"
	EntrySubmodule EntryType = "submodule"
)

// GitEntry is one path of a commit's tree: a file, a directory, a symbolic
// link or a submodule.
type GitEntry struct {
	// Path is the slash-separated path from the root ("" for the root).
	Path string
	// Name is the last element of Path.
	Name string
	Type EntryType
	// Mode is the Git file mode (0o100644, 0o100755, 0o120000, 0o40000, 0o160000).
	Mode int
	// ID is the blob, tree or (for a submodule) commit id.
	ID string
	// Size is the blob's size in bytes (0 for directories and submodules).
	Size int64
	// Content is the blob's bytes when they were asked for.
	Content []byte
	// Target is a symbolic link's target.
	Target string
	// SubmoduleURL is a submodule's URL from .gitmodules.
	SubmoduleURL string
	// LastCommit is the last commit that changed the path, when asked for.
	LastCommit *GitCommitInfo
}
