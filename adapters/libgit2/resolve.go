package libgit2

import (
	"context"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Resolve resolves a branch, tag or commit id to a commit (ports.GitResolver).
func (s *Storage) Resolve(ctx context.Context, p ports.RepoPath, ref string) (ports.GitRevision, error) {
	var rev ports.GitRevision
	err := s.withRevision(ctx, p, ref, func(_ *git.Repository, r ports.GitRevision) error {
		rev = r
		return nil
	})
	return rev, err
}

// ResolvePrefix splits "<ref>/<path>" and resolves the ref (ports.GitResolver).
func (s *Storage) ResolvePrefix(ctx context.Context, p ports.RepoPath, refAndPath string) (ports.GitRevision, string, error) {
	var (
		rev  ports.GitRevision
		rest string
	)
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		rev, rest, err = resolvePrefix(repo, refAndPath)
		return err
	})
	return rev, rest, err
}

// Commit returns a commit's metadata by full id (ports.GitResolver).
func (s *Storage) Commit(ctx context.Context, p ports.RepoPath, id string) (ports.GitCommitInfo, error) {
	var info ports.GitCommitInfo
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := lookupCommit(repo, id)
		if err != nil {
			return err
		}
		defer c.Free()
		info = commitInfo(c)
		return nil
	})
	return info, err
}

// errNoRef is the answer to a ref that names nothing.
func errNoRef(ref string) error { return errs.NotFound("ref " + ref + " does not exist") }

// resolve implements Resolve on an open repository.
func resolve(repo *git.Repository, ref string) (ports.GitRevision, error) {
	if ref == "" {
		return resolveHead(repo)
	}
	if strings.ContainsRune(ref, 0) {
		return ports.GitRevision{}, errNoRef(ref)
	}
	if rev, ok, err := resolveNamed(repo, "refs/heads/", ports.RevisionBranch, ref); ok || err != nil {
		return rev, err
	}
	if rev, ok, err := resolveNamed(repo, "refs/tags/", ports.RevisionTag, ref); ok || err != nil {
		return rev, err
	}
	if id, ok, err := lookupCommitPrefix(repo, ref); ok || err != nil {
		return ports.GitRevision{Kind: ports.RevisionCommit, Name: ref, CommitID: id}, err
	}
	return ports.GitRevision{}, errNoRef(ref)
}

// resolveHead resolves the branch HEAD points at.
func resolveHead(repo *git.Repository) (ports.GitRevision, error) {
	head, err := repo.References.Lookup("HEAD")
	if err != nil {
		return ports.GitRevision{}, fmt.Errorf("libgit2: read HEAD: %w", err)
	}
	defer head.Free()
	target := head.SymbolicTarget()
	if !strings.HasPrefix(target, "refs/heads/") {
		return ports.GitRevision{}, errs.NotFound("HEAD does not name a branch")
	}
	name := strings.TrimPrefix(target, "refs/heads/")
	rev, ok, err := resolveNamed(repo, "refs/heads/", ports.RevisionBranch, name)
	if err == nil && !ok {
		err = errs.NotFound("the default branch " + name + " has no commit")
	}
	return rev, err
}

// resolveNamed peels prefix+name to a commit when that reference exists.
func resolveNamed(repo *git.Repository, prefix string, kind ports.RevisionKind, name string) (ports.GitRevision, bool, error) {
	full := prefix + name
	if !refNameValid(full) {
		return ports.GitRevision{}, false, nil
	}
	ref, err := repo.References.Lookup(full)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) || git.IsErrorCode(err, git.ErrorCodeInvalidSpec) {
			return ports.GitRevision{}, false, nil
		}
		return ports.GitRevision{}, false, fmt.Errorf("libgit2: look up %s: %w", full, err)
	}
	defer ref.Free()
	obj, err := ref.Peel(git.ObjectCommit)
	if err != nil {
		// A tag of a tree or blob names no commit.
		return ports.GitRevision{}, false, errs.NotFound(string(kind) + " " + name + " does not point at a commit")
	}
	defer obj.Free()
	return ports.GitRevision{Kind: kind, Name: name, CommitID: obj.Id().String()}, true, nil
}

// refNameValid reports whether full can name a reference, by Git's rules
// and libgit2's length bound (repository.ValidRefName) and by libgit2's own
// check. Names are checked before libgit2 looks them up: past its buffer it
// fails instead of saying a reference does not exist.
func refNameValid(full string) bool {
	if !repository.ValidRefName(full) {
		return false
	}
	ok, err := git.ReferenceNameIsValid(full)
	return err == nil && ok
}

// lookupCommitPrefix finds the commit a full or abbreviated (7 or more hex
// digits) id names. An ambiguous prefix names nothing.
func lookupCommitPrefix(repo *git.Repository, id string) (string, bool, error) {
	if len(id) < 7 || len(id) > 40 || !repository.IsHex(id) {
		return "", false, nil
	}
	oid, err := git.NewOid((strings.ToLower(id) + strings.Repeat("0", 40))[:40])
	if err != nil {
		return "", false, nil
	}
	c, err := repo.LookupPrefixCommit(oid, uint(len(id)))
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) || git.IsErrorCode(err, git.ErrorCodeAmbiguous) ||
			git.IsErrorCode(err, git.ErrorCodeInvalidSpec) {
			return "", false, nil
		}
		// A prefix of another kind of object is not a commit either.
		if strings.Contains(err.Error(), "type") {
			return "", false, nil
		}
		return "", false, fmt.Errorf("libgit2: look up commit %s: %w", id, err)
	}
	defer c.Free()
	return c.Id().String(), true, nil
}

// resolveCommit resolves ref and looks its commit up; the caller frees it.
func resolveCommit(repo *git.Repository, ref string) (*git.Commit, error) {
	rev, err := resolve(repo, ref)
	if err != nil {
		return nil, err
	}
	return lookupCommit(repo, rev.CommitID)
}

// lookupCommit finds a commit by its full 40-hex id; anything else, or an
// object that is not a commit, is not found.
func lookupCommit(repo *git.Repository, id string) (*git.Commit, error) {
	if len(id) != 40 || !repository.IsHex(id) {
		return nil, errs.NotFound("commit " + id + " does not exist")
	}
	oid, err := git.NewOid(strings.ToLower(id))
	if err != nil {
		return nil, errs.NotFound("commit " + id + " does not exist")
	}
	c, err := repo.LookupCommit(oid)
	if err != nil {
		return nil, errs.NotFound("commit " + id + " does not exist")
	}
	return c, nil
}

// resolvePrefix implements ResolvePrefix on an open repository.
func resolvePrefix(repo *git.Repository, refAndPath string) (ports.GitRevision, string, error) {
	if refAndPath == "" || strings.ContainsRune(refAndPath, 0) {
		return ports.GitRevision{}, "", errNoRef(refAndPath)
	}
	parts := strings.Split(refAndPath, "/")
	// A branch and a longer branch under it cannot both exist (refs/heads/a
	// and refs/heads/a/b), so the first match from the left is the only one.
	for _, kind := range []struct {
		prefix string
		kind   ports.RevisionKind
	}{{"refs/heads/", ports.RevisionBranch}, {"refs/tags/", ports.RevisionTag}} {
		for i := 1; i <= len(parts); i++ {
			name := strings.Join(parts[:i], "/")
			rev, ok, err := resolveNamed(repo, kind.prefix, kind.kind, name)
			if err != nil {
				return ports.GitRevision{}, "", err
			}
			if ok {
				return rev, strings.Join(parts[i:], "/"), nil
			}
		}
	}
	if id, ok, err := lookupCommitPrefix(repo, parts[0]); ok || err != nil {
		return ports.GitRevision{Kind: ports.RevisionCommit, Name: parts[0], CommitID: id}, strings.Join(parts[1:], "/"), err
	}
	return ports.GitRevision{}, "", errNoRef(parts[0])
}

// commitInfo copies a commit's metadata out of libgit2.
func commitInfo(c *git.Commit) ports.GitCommitInfo {
	info := ports.GitCommitInfo{
		ID:        c.Id().String(),
		TreeID:    c.TreeId().String(),
		Author:    signature(c.Author()),
		Committer: signature(c.Committer()),
		Message:   c.Message(),
	}
	n := c.ParentCount()
	info.ParentIDs = make([]string, 0, n)
	for i := uint(0); i < n; i++ {
		info.ParentIDs = append(info.ParentIDs, c.ParentId(i).String())
	}
	return info
}

// signature copies a libgit2 signature.
func signature(s *git.Signature) ports.GitSignature {
	if s == nil {
		return ports.GitSignature{}
	}
	return ports.GitSignature{Name: s.Name, Email: s.Email, When: s.When}
}
