package ports

import (
	"context"
	"io"
)

// GitTrees is the part of GitContent for trees, blobs and path entries (contents, raw).
type GitTrees interface {
	// ReadPath resolves q's ref and reads q.Path at it with one repository
	// open: the entry, a file's bytes when asked, a directory's entries when
	// asked, and the last commits that changed them when asked. An absent
	// ref or path is errs.ErrNotFound. The bytes returned may be shared
	// with a cache: callers must not modify them.
	ReadPath(ctx context.Context, p RepoPath, q GitPathQuery) (GitPathResult, error)
	// OpenBlob resolves q's ref and opens the file or symbolic link at
	// q.Path for streaming (q.Content, q.List and q.LastCommit are ignored).
	// A directory, a submodule or an absent path is errs.ErrNotFound. The
	// reader must be closed; it reads nothing until its first Read, so a
	// caller that only needs the entry (a cache hit) pays no blob read.
	OpenBlob(ctx context.Context, p RepoPath, q GitPathQuery) (GitPathResult, io.ReadCloser, error)
	// Tree lists the tree a tree id, commit id, branch or tag names, one
	// page of it. Anything else is errs.ErrNotFound.
	Tree(ctx context.Context, p RepoPath, q GitTreeQuery) (GitTreePage, error)
	// Blob reads a blob by its full id; the bytes are left out when the blob
	// is larger than maxContent. Anything else is errs.ErrNotFound.
	Blob(ctx context.Context, p RepoPath, id string, maxContent int64) (GitBlob, error)
}

// GitPathQuery asks for one path of a revision.
type GitPathQuery struct {
	// Ref is the branch, tag or commit to read; "" is the default branch.
	Ref string
	// RefInPath says that Path starts with the ref ("<ref>/<path>", where the
	// ref may contain slashes). When no leading part of Path names a ref,
	// the whole of Path is read at Ref.
	RefInPath bool
	// Path is the slash-separated path from the root ("" for the root). It
	// must already be clean: no empty, "." or ".." segment, no leading slash.
	Path string
	// Content asks for a file's bytes, when it is at most MaxContent bytes.
	Content    bool
	MaxContent int64
	// List asks for a directory's entries.
	List bool
	// LastCommit asks for the last commit that changed the path and, when
	// listing, each entry.
	LastCommit bool
}

// GitPathResult is what ReadPath found.
type GitPathResult struct {
	// Revision is the ref the path was read at.
	Revision GitRevision
	// Entry is the path itself (type dir with an empty Path for the root).
	Entry GitEntry
	// Entries are a directory's entries in Git's tree order, when listed.
	Entries []GitEntry
}

// GitTreeQuery asks for one page of a tree listing.
type GitTreeQuery struct {
	// Rev is a tree id, a commit id, or a branch or tag name.
	Rev string
	// Recursive lists the subtrees' entries too (git ls-tree -r -t).
	Recursive bool
	// Offset and Limit select the entries of the page.
	Offset, Limit int
}

// GitTreeEntry is one entry of a tree listing.
type GitTreeEntry struct {
	// Path is relative to the listed tree.
	Path string
	// Mode is the Git file mode (0o100644, 0o40000, …).
	Mode int
	// Type is the object type: "blob", "tree" or "commit" (a submodule).
	Type string
	ID   string
	// Size is a blob's size in bytes (0 for others).
	Size int64
}

// GitTreePage is one page of a tree listing.
type GitTreePage struct {
	// ID is the listed tree's id.
	ID string
	// Entries are the page's entries in Git's order.
	Entries []GitTreeEntry
	// Total counts all the entries of the listing.
	Total int
}

// GitBlob is a blob read by id.
type GitBlob struct {
	ID   string
	Size int64
	// Content is nil when the blob was over the size asked for.
	Content []byte
}
