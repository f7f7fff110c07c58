package ports

import "context"

// GitBranch is a branch and its head commit.
type GitBranch struct {
	Name   string
	Commit GitCommitInfo
}

// GitTag is a tag, lightweight or annotated.
type GitTag struct {
	Name string
	// ID is the tag object's id for an annotated tag, the commit's for a
	// lightweight one (Gitea's Tag.ID).
	ID string
	// Annotated says whether the reference names a tag object.
	Annotated bool
	// ObjectID and ObjectType are what the tag names directly: the commit
	// for a lightweight tag, the tag object's target for an annotated one.
	ObjectID   string
	ObjectType string
	// CommitID is the commit the tag peels to ("" when it names no commit).
	CommitID string
	// Message is the tag object's message, or the commit's for a lightweight tag.
	Message string
	// Tagger is the tag object's tagger, or the commit's committer for a
	// lightweight tag.
	Tagger GitSignature
}

// GitRef is one reference and the object it names directly.
type GitRef struct {
	// Name is the full name, e.g. "refs/heads/main".
	Name string
	// ObjectID is the 40-hex id of the object the reference points at.
	ObjectID string
	// ObjectType is that object's type: commit, tag, tree or blob.
	ObjectType string
}

// GitNewTag describes a tag to create.
type GitNewTag struct {
	Name string
	// CommitID is the full id of the commit to tag.
	CommitID string
	// Message makes the tag annotated when non-empty.
	Message string
	// Tagger signs an annotated tag.
	Tagger GitSignature
}

// GitNoteChange is one file the notes commit changed.
type GitNoteChange struct {
	Path string
	// Status is "added", "removed" or "modified".
	Status string
}

// GitNote is the note attached to a commit in refs/notes/commits.
type GitNote struct {
	// CommitID is the annotated commit.
	CommitID string
	Message  string
	// Commit is the commit of the notes history that last changed this
	// note, as Gitea reports it, with the files it changed and its line stats.
	Commit    GitCommitInfo
	Changes   []GitNoteChange
	Additions int
	Deletions int
}

// GitRefs is the part of GitContent for branches and tags: list, get, create, rename, delete; refs and annotated tags.
// Absent branches, tags, refs and notes are errs.ErrNotFound; names Git refuses are errs.ErrInvalid.
type GitRefs interface {
	// ListBranches returns one page of branches ordered by name, with their
	// head commits, and the number of branches. Only the page's commits are read.
	ListBranches(ctx context.Context, p RepoPath, opts ListOptions) ([]GitBranch, int64, error)
	// Branch returns one branch.
	Branch(ctx context.Context, p RepoPath, name string) (GitBranch, error)
	// BranchTips returns the commit ids these branches point at, by name,
	// in one look at the repository and reading no commit; absent branches
	// are left out (an absent repository is errs.ErrNotFound).
	BranchTips(ctx context.Context, p RepoPath, names []string) (map[string]string, error)
	// CreateBranch creates name at commitID. A branch of that name, a branch
	// whose name would clash with it as a directory (a and a/b), or a tag of
	// that name is errs.ErrConflict (*RefConflictError says which).
	CreateBranch(ctx context.Context, p RepoPath, name, commitID string) (GitBranch, error)
	// RenameBranch renames from to to; HEAD follows when it named from.
	// An existing or clashing target is errs.ErrConflict.
	RenameBranch(ctx context.Context, p RepoPath, from, to string) error
	// DeleteBranch deletes the branch if it still points where it was read,
	// and returns the commit it pointed at.
	DeleteBranch(ctx context.Context, p RepoPath, name string) (string, error)

	// ListTags returns one page of tags in Gitea's order (annotated tags by
	// their target's date, newest first, then lightweight tags; names break
	// ties) and the number of tags.
	ListTags(ctx context.Context, p RepoPath, opts ListOptions) ([]GitTag, int64, error)
	// Tag returns one tag by name.
	Tag(ctx context.Context, p RepoPath, name string) (GitTag, error)
	// CreateTag creates a lightweight or annotated tag; an existing one is errs.ErrConflict.
	CreateTag(ctx context.Context, p RepoPath, t GitNewTag) (GitTag, error)
	// DeleteTag deletes the tag if it still points where it was read, and
	// returns the object id it pointed at.
	DeleteTag(ctx context.Context, p RepoPath, name string) (string, error)
	// AnnotatedTag returns the tag object with this full id; an object that
	// is not an annotated tag is errs.ErrBadRequest.
	AnnotatedTag(ctx context.Context, p RepoPath, id string) (GitTag, error)

	// ListRefs returns the references whose full names start with prefix
	// (all when empty), ordered by name, leaving out remote-tracking refs
	// and refs/stash as Gitea does.
	ListRefs(ctx context.Context, p RepoPath, prefix string) ([]GitRef, error)

	// Note returns the note of commit commitID (a full id) in refs/notes/commits.
	Note(ctx context.Context, p RepoPath, commitID string) (GitNote, error)
}

// RefConflictKind says why a reference cannot be created.
type RefConflictKind int

// The reasons a reference name is taken.
const (
	// RefExists: a reference of that very name exists.
	RefExists RefConflictKind = iota
	// RefNameClash: a reference is a directory prefix of the name, or the
	// name is a directory prefix of a reference (a and a/b).
	RefNameClash
	// RefTagExists: a branch was to be created where a tag of the same name exists.
	RefTagExists
)

// RefConflictError is the errs.ErrConflict a reference creation or rename
// returns when the name is taken.
type RefConflictError struct {
	Kind RefConflictKind
	// Name is the reference that is in the way (full name).
	Name string
	Err  error
}

// Error describes the conflict.
func (e *RefConflictError) Error() string { return e.Err.Error() }

// Unwrap returns the categorised error.
func (e *RefConflictError) Unwrap() error { return e.Err }
