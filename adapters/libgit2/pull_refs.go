package libgit2

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// CopyRef points toRef in to at the commit fromRef names in from, fetching
// the objects it needs when the repositories differ (ports.GitPulls).
func (s *Storage) CopyRef(ctx context.Context, from ports.RepoPath, fromRef string, to ports.RepoPath, toRef string) (string, error) {
	src, dst, err := s.dirPair(ctx, from, to)
	if err != nil {
		return "", err
	}
	if !refNameValid(toRef) || !strings.HasPrefix(toRef, "refs/") {
		return "", errs.Invalid("invalid ref name "+toRef, "ref")
	}
	srcRepo, err := openRepo(src)
	if err != nil {
		return "", err
	}
	defer srcRepo.Free()
	name, id, err := pullRefCommit(srcRepo, fromRef)
	if err != nil {
		return "", err
	}
	if src == dst {
		return id.String(), forceRef(ctx, srcRepo, toRef, id)
	}
	dstRepo, err := openRepo(dst)
	if err != nil {
		return "", err
	}
	defer dstRepo.Free()
	if name == "" {
		// A bare commit id: libgit2 fetches refs only, so a scratch ref
		// of this call's own names the commit in the source for the
		// fetch's length.
		name = fetchRef + id.String() + "-" + rand.Text()
		if err := forceRef(ctx, srcRepo, name, id); err != nil {
			return "", err
		}
		defer dropRef(srcRepo, name)
	}
	// The fetch lands on a scratch ref of this call's own, so that two
	// calls copying to the same toRef at once never fight over its lock
	// inside the fetch; the move to toRef below retries instead.
	landed := fetchRef + "landed-" + rand.Text()
	defer dropRef(dstRepo, landed)
	if err := fetchRefInto(ctx, dstRepo, src, dst, name, landed); err != nil {
		return "", err
	}
	// The ref as fetched (it may have moved since it was read above),
	// peeled: toRef names the commit even when fromRef is an annotated tag.
	_, got, err := pullRefCommit(dstRepo, landed)
	if err != nil {
		return "", err
	}
	return got.String(), forceRef(ctx, dstRepo, toRef, got)
}

// pullRefCommit resolves a full ref name ("refs/heads/x", "refs/pull/1/head")
// or anything resolve takes (a branch, a tag, a commit id) to a commit, and
// returns the full name of the ref it read ("" for a commit id).
func pullRefCommit(repo *git.Repository, name string) (string, *git.Oid, error) {
	if !strings.HasPrefix(name, "refs/") {
		rev, err := resolve(repo, name)
		if err != nil {
			return "", nil, err
		}
		id, err := git.NewOid(rev.CommitID)
		if err != nil {
			return "", nil, fmt.Errorf("libgit2: commit id %s: %w", rev.CommitID, err)
		}
		switch rev.Kind {
		case ports.RevisionBranch:
			return "refs/heads/" + rev.Name, id, nil
		case ports.RevisionTag:
			return "refs/tags/" + rev.Name, id, nil
		}
		return "", id, nil
	}
	if !refNameValid(name) {
		return "", nil, errNoRef(name)
	}
	ref, err := repo.References.Lookup(name)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return "", nil, errNoRef(name)
		}
		return "", nil, fmt.Errorf("libgit2: look up %s: %w", name, err)
	}
	defer ref.Free()
	obj, err := ref.Peel(git.ObjectCommit)
	if err != nil {
		return "", nil, errs.NotFound("ref " + name + " does not point at a commit")
	}
	defer obj.Free()
	return name, obj.Id(), nil
}

// forceRefAttempts bounds the retries of a ref update that found the ref
// locked by another writer.
const forceRefAttempts = 40

// forceRef points name at id, whatever it pointed at before. Another
// writer holding the ref's lock (two merges syncing one pull request's
// head at once) is waited for, not reported.
func forceRef(ctx context.Context, repo *git.Repository, name string, id *git.Oid) error {
	for attempt := 1; ; attempt++ {
		ref, err := repo.References.Create(name, id, true, "")
		if err == nil {
			ref.Free()
			return nil
		}
		if !changeRetryable(err) || attempt == forceRefAttempts {
			return fmt.Errorf("libgit2: update %s: %w", name, err)
		}
		if err := changeBackoff(ctx, attempt); err != nil {
			return err
		}
	}
}

// dropRef deletes a ref, if it is still there.
func dropRef(repo *git.Repository, name string) {
	ref, err := repo.References.Lookup(name)
	if err != nil {
		return
	}
	_ = ref.Delete()
	ref.Free()
}

// fetchRef is the prefix of the scratch ref that names a bare commit id in
// the source repository while it is fetched.
const fetchRef = "refs/depot-fetch/"

// fetchRefInto fetches ref srcName of the repository in src into ref
// dstName of dstRepo (forced), with the objects dstRepo lacks: libgit2's
// local transport packs only those.
func fetchRefInto(ctx context.Context, dstRepo *git.Repository, src, dst, srcName, dstName string) error {
	remote, err := dstRepo.Remotes.CreateAnonymous(src)
	if err != nil {
		return fmt.Errorf("libgit2: remote %s: %w", src, err)
	}
	defer remote.Free()
	opts := &git.FetchOptions{
		DownloadTags: git.DownloadTagsNone,
		RemoteCallbacks: git.RemoteCallbacks{
			TransferProgressCallback: func(git.TransferProgress) error { return ctx.Err() },
		},
	}
	if err := remote.Fetch([]string{"+" + srcName + ":" + dstName}, opts, ""); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("libgit2: fetch from %s: %w", src, err)
	}
	// The fetch writes FETCH_HEAD, which nothing here reads.
	if err := os.Remove(filepath.Join(dst, "FETCH_HEAD")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("libgit2: remove FETCH_HEAD: %w", err)
	}
	return nil
}

// UpdateRef moves ref to newID if it still points at oldID, "" meaning it
// must not exist (ports.GitPulls). libgit2 checks the old value under the
// ref's lock, so of two racing updates from the same value one loses.
func (s *Storage) UpdateRef(ctx context.Context, p ports.RepoPath, ref, newID, oldID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !refNameValid(ref) || !strings.HasPrefix(ref, "refs/") {
		return errs.Invalid("invalid ref name "+ref, "ref")
	}
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := lookupCommit(repo, newID)
		if err != nil {
			return err
		}
		id := c.Id()
		c.Free()
		lost := errs.Conflict("ref " + ref + " does not point at " + orNothing(oldID))
		if oldID == "" {
			r, err := repo.References.Create(ref, id, false, "")
			if err != nil {
				if changeRetryable(err) {
					return lost
				}
				return fmt.Errorf("libgit2: create %s: %w", ref, err)
			}
			r.Free()
			return nil
		}
		cur, err := repo.References.Lookup(ref)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return lost
			}
			return fmt.Errorf("libgit2: look up %s: %w", ref, err)
		}
		defer cur.Free()
		if cur.Type() != git.ReferenceOid || !strings.EqualFold(cur.Target().String(), oldID) {
			return lost
		}
		// SetTarget rewrites the ref only if it still holds the value read
		// above, checked under the ref's lock (GIT_EMODIFIED otherwise).
		moved, err := cur.SetTarget(id, "")
		if err != nil {
			if changeRetryable(err) {
				return lost
			}
			return fmt.Errorf("libgit2: update %s: %w", ref, err)
		}
		moved.Free()
		return nil
	})
}

// orNothing names an expected old value for a message.
func orNothing(id string) string {
	if id == "" {
		return "nothing"
	}
	return id
}

// IsAncestor reports whether commit a is reachable from commit b
// (ports.GitPulls).
func (s *Storage) IsAncestor(ctx context.Context, p ports.RepoPath, a, b string) (bool, error) {
	var ok bool
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		ca, err := lookupCommit(repo, a)
		if err != nil {
			return err
		}
		defer ca.Free()
		cb, err := lookupCommit(repo, b)
		if err != nil {
			return err
		}
		defer cb.Free()
		ok, err = isAncestor(repo, ca.Id(), cb.Id())
		return err
	})
	return ok, err
}

// isAncestor reports whether a is b or reachable from it.
func isAncestor(repo *git.Repository, a, b *git.Oid) (bool, error) {
	if a.Equal(b) {
		return true, nil
	}
	ok, err := repo.DescendantOf(b, a)
	if err != nil {
		return false, fmt.Errorf("libgit2: descendant of: %w", err)
	}
	return ok, nil
}
