package ports

import (
	"context"
	"time"
)

// GitSignature is an author or committer.
type GitSignature struct {
	Name, Email string
	When        time.Time
}

// GitFile is a file of a commit written from scratch.
type GitFile struct {
	// Path is slash-separated and relative; adapters refuse ".." and absolute paths.
	Path       string
	Content    []byte
	Executable bool
}

// GitCommit describes a commit to write on a branch.
type GitCommit struct {
	Branch    string
	Message   string
	Author    GitSignature
	Committer GitSignature
	Files     []GitFile
}

// RepoPath addresses a repository on disk by owner and name; adapters lower-case both.
type RepoPath struct {
	Owner, Name string
}

// GitStorage keeps the bare Git repositories.
type GitStorage interface {
	GitUnadopted
	// Init creates an empty bare repository whose HEAD points at branch.
	Init(ctx context.Context, p RepoPath, branch string) error
	// CommitFiles writes c as a commit on c.Branch (the first one when the
	// branch does not exist yet) and returns its id.
	CommitFiles(ctx context.Context, p RepoPath, c GitCommit) (string, error)
	// Delete removes a repository: it is moved aside first, so a crash never
	// leaves a half-deleted repository under its name.
	Delete(ctx context.Context, p RepoPath) error
	// Move renames or transfers a repository on disk.
	Move(ctx context.Context, from, to RepoPath) error
	// Fork clones from into a new bare repository to, sharing objects by
	// hard links where the file system allows.
	Fork(ctx context.Context, from, to RepoPath) error
	// Generate creates to with one commit holding the tree of from's branch
	// (a repository made from a template).
	Generate(ctx context.Context, from RepoPath, fromBranch string, to RepoPath, c GitCommit) error
	// SetHead points HEAD at branch.
	SetHead(ctx context.Context, p RepoPath, branch string) error
	// HasBranch reports whether the branch exists.
	HasBranch(ctx context.Context, p RepoPath, branch string) (bool, error)
	// IsEmpty reports whether the repository has no branch.
	IsEmpty(ctx context.Context, p RepoPath) (bool, error)
	// Size is the repository's size on disk in bytes.
	Size(ctx context.Context, p RepoPath) (int64, error)
	// JournalMove records, durably, a directory move (Move or MoveOwner)
	// about to happen together with a database change, and returns m with
	// its journal ID. Call SettleMove once the change committed, or after
	// moving back when it did not; a crash in between leaves the record for
	// PendingMoves.
	JournalMove(ctx context.Context, m DirMove) (DirMove, error)
	// SettleMove forgets a journalled move.
	SettleMove(ctx context.Context, m DirMove) error
	// PendingMoves lists the journalled moves not settled, oldest first.
	PendingMoves(ctx context.Context) ([]DirMove, error)
	// WarmCommitCounts computes ahead, unless known, how many commits each
	// of the commit ids reaches (the total of a commit listing), so that
	// the first listing after a push is fast. Ids that are not commits are
	// skipped.
	WarmCommitCounts(ctx context.Context, p RepoPath, ids []string) error
	// Exists reports whether a repository is on disk at p.
	Exists(ctx context.Context, p RepoPath) (bool, error)
	// MoveOwner renames an owner's directory (after a user rename); an owner
	// without repositories has none, which is not an error.
	MoveOwner(ctx context.Context, from, to string) error
	// Sweep removes what crashed deletions left aside.
	Sweep(ctx context.Context) error
}

// DirMove is a repository's (or, with Owner, all of an owner's
// repositories') move on disk that goes with a database change: a rename or
// a transfer. At start-up the journal of unsettled moves is compared with
// the database, which decides: the directory follows the committed name.
type DirMove struct {
	// ID names the journal record (set by JournalMove).
	ID string
	// RepoID is the repository moved, or UserID the owner renamed (Owner).
	RepoID, UserID int64
	Owner          bool
	// From and To are the paths; for an owner move only Owner is set.
	From, To RepoPath
}
