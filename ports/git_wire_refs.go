package ports

import "context"

// GitWireRef is a reference as Git's protocol-v2 ls-refs command lists it.
type GitWireRef struct {
	// Name is the full name ("refs/heads/main"), or "HEAD".
	Name string
	// ObjectID is the object the reference resolves to, "" for an unborn
	// HEAD (a symbolic HEAD naming a branch that does not exist yet).
	ObjectID string
	// SymrefTarget is the reference a symbolic one finally resolves to, ""
	// for a direct one.
	SymrefTarget string
	// PeeledID is the non-tag object an annotated tag peels to, when peeling
	// was asked for; "" otherwise.
	PeeledID string
}

// GitWireRefs lists a repository's references for Git's wire protocol, so
// that the transport can answer ls-refs without starting git.
type GitWireRefs interface {
	// WireRefs returns HEAD (nil when it does not resolve at all) and the
	// references under refs/, those whose names start with one of prefixes
	// (all of them when prefixes is empty; HEAD too is left out unless one
	// matches it), the references sorted by name. As git does, a reference
	// naming a missing object is listed, a symbolic one naming no
	// reference is not. PeeledID is filled only when peel
	// is set. An error means the answer could not be made the way git would
	// make it; the caller then asks git.
	WireRefs(ctx context.Context, p RepoPath, prefixes []string, peel bool) (head *GitWireRef, refs []GitWireRef, err error)
}
