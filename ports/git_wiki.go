package ports

import "context"

// WikiRepoPath is where the wiki of the repository at p lives: a second bare
// repository "<name>.wiki.git" beside it. Repository names may not end in
// ".wiki", so no repository takes a wiki's place. The wiki's history reads
// (GitHistory.ListCommits) work on this path as on any repository.
func WikiRepoPath(p RepoPath) RepoPath { return RepoPath{Owner: p.Owner, Name: p.Name + ".wiki"} }

// WikiWrite is one change of a wiki as a commit on the branch its HEAD
// names: Put written with Content (unless empty) and Remove removed (unless
// empty, or Put itself).
type WikiWrite struct {
	// Branch is HEAD's branch of a wiki this write creates.
	Branch    string
	Message   string
	Author    GitSignature
	Committer GitSignature
	// Put is the file written; Create refuses it when it exists already.
	Put     string
	Content []byte
	Create  bool
	// Remove is a file removed; absent is not an error unless Put is empty
	// (a deletion), which is errs.ErrNotFound.
	Remove string
}

// WikiEntry is one file at the root of a wiki.
type WikiEntry struct {
	Name string
	// Regular is set for a plain file (not a directory, link or submodule).
	Regular bool
}

// GitWiki keeps repositories' wikis. Files are checked by the caller
// (repository.WikiFileSafe); the adapter refuses one that would leave the
// wiki all the same. The wiki is created by its first write; reads of a
// wiki that does not exist, or has no such branch, are errs.ErrNotFound. A
// branch "" is the one the wiki's HEAD names.
type GitWiki interface {
	// WikiEntries lists the files at the root of the wiki's branch, in tree order.
	WikiEntries(ctx context.Context, p RepoPath, branch string) ([]WikiEntry, error)
	// WikiFile reads a file of the wiki's branch: its content when its size
	// is at most max (nil otherwise) and its size. Absent: errs.ErrNotFound.
	WikiFile(ctx context.Context, p RepoPath, branch, file string, max int64) ([]byte, int64, error)
	// WriteWiki commits w (creating the wiki, with HEAD at w.Branch, on the
	// first write) with compare-and-swap on the branch, retried while the
	// write still applies. An existing file where Create asked for a new one
	// is errs.ErrConflict.
	WriteWiki(ctx context.Context, p RepoPath, w WikiWrite) (GitCommitInfo, error)
}
