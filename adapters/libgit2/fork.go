package libgit2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// forkRemote is the remote the clone of a fork goes through; it is removed
// once the clone is done, as a fork does not track its parent.
const forkRemote = "origin"

// Fork clones from into a new bare repository to. The clone is local, so
// libgit2 hard-links the object files when both sit on one file system.
// Every branch and tag becomes a local ref, and HEAD names the same branch
// as the source's HEAD.
func (s *Storage) Fork(ctx context.Context, from, to ports.RepoPath) error {
	src, dst, err := s.dirPair(ctx, from, to)
	if err != nil {
		return err
	}
	head, err := headBranch(src)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return errRepoExists()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("libgit2: stat target repository: %w", err)
	}
	if err := claimDir(dst); err != nil {
		return err
	}
	if err := cloneBare(ctx, src, dst, head); err != nil {
		if rmErr := os.RemoveAll(dst); rmErr != nil {
			s.log.Error("remove partial fork", "path", dst, "err", rmErr)
		}
		return err
	}
	return nil
}

// headBranch opens the repository in dir and returns the branch reference
// its HEAD names, or "" when HEAD is detached.
func headBranch(dir string) (string, error) {
	repo, err := openRepo(dir)
	if err != nil {
		return "", err
	}
	defer repo.Free()
	head, err := repo.References.Lookup("HEAD")
	if err != nil {
		return "", fmt.Errorf("libgit2: read HEAD: %w", err)
	}
	defer head.Free()
	if head.Type() != git.ReferenceSymbolic {
		return "", nil
	}
	target := head.SymbolicTarget()
	if !strings.HasPrefix(target, "refs/heads/") {
		return "", nil
	}
	return target, nil
}

// cloneBare clones the repository at src into the empty directory dst,
// mapping the source's branches and tags onto local refs.
func cloneBare(ctx context.Context, src, dst, head string) error {
	opts := &git.CloneOptions{
		Bare: true,
		FetchOptions: git.FetchOptions{
			DownloadTags: git.DownloadTagsAll,
			RemoteCallbacks: git.RemoteCallbacks{
				TransferProgressCallback: func(git.TransferProgress) error { return ctx.Err() },
			},
		},
		// Branches land as branches, not remote-tracking refs, as in git
		// clone --bare.
		RemoteCreateCallback: func(repo *git.Repository, name, url string) (*git.Remote, error) {
			return repo.Remotes.CreateWithFetchspec(name, url, "+refs/heads/*:refs/heads/*")
		},
	}
	repo, err := git.Clone(src, dst, opts)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("libgit2: clone: %w", err)
	}
	defer repo.Free()
	// libgit2 leaves HEAD at its default when the source is empty.
	if head != "" {
		if err := repo.SetHead(head); err != nil {
			return fmt.Errorf("libgit2: set HEAD: %w", err)
		}
	}
	if err := dropRemote(repo, forkRemote); err != nil {
		return err
	}
	// The fetch leaves an empty FETCH_HEAD behind; a fresh fork has none.
	if err := os.Remove(filepath.Join(dst, "FETCH_HEAD")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("libgit2: remove FETCH_HEAD: %w", err)
	}
	return nil
}

// dropRemote removes the remote name from repo's configuration. libgit2
// deletes the refs a remote's fetch refspec maps onto, which for this
// remote are the branches themselves, so the refspec goes first.
func dropRemote(repo *git.Repository, name string) error {
	cfg, err := repo.Config()
	if err != nil {
		return fmt.Errorf("libgit2: open config: %w", err)
	}
	err = cfg.Delete("remote." + name + ".fetch")
	cfg.Free()
	if err != nil && !git.IsErrorCode(err, git.ErrorCodeNotFound) {
		return fmt.Errorf("libgit2: remove fetch refspec: %w", err)
	}
	if err := repo.Remotes.Delete(name); err != nil {
		return fmt.Errorf("libgit2: remove remote: %w", err)
	}
	// The clone also points refs/remotes/<name>/HEAD at the default branch.
	return deleteRefs(repo, "refs/remotes/"+name+"/")
}

// deleteRefs deletes every reference whose name starts with prefix.
func deleteRefs(repo *git.Repository, prefix string) error {
	it, err := repo.NewReferenceNameIterator()
	if err != nil {
		return fmt.Errorf("libgit2: list refs: %w", err)
	}
	var doomed []string
	for {
		name, err := it.Next()
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			break
		}
		if err != nil {
			it.Free()
			return fmt.Errorf("libgit2: list refs: %w", err)
		}
		if strings.HasPrefix(name, prefix) {
			doomed = append(doomed, name)
		}
	}
	it.Free()
	for _, name := range doomed {
		ref, err := repo.References.Lookup(name)
		if err != nil {
			return fmt.Errorf("libgit2: look up %s: %w", name, err)
		}
		err = ref.Delete()
		ref.Free()
		if err != nil {
			return fmt.Errorf("libgit2: delete %s: %w", name, err)
		}
	}
	return nil
}

// Generate creates to with one parentless commit whose tree is the tree of
// from's fromBranch, as a repository made from a template. The objects are
// copied, so to shares nothing with from. When from has no such branch, to
// is created empty. c's files are not used: the template's tree is the
// content.
func (s *Storage) Generate(ctx context.Context, from ports.RepoPath, fromBranch string, to ports.RepoPath, c ports.GitCommit) error {
	src, dst, err := s.dirPair(ctx, from, to)
	if err != nil {
		return err
	}
	fromRef, err := branchRef(fromBranch)
	if err != nil {
		return err
	}
	toRef, err := branchRef(c.Branch)
	if err != nil {
		return err
	}
	author, committer, err := signatures(c)
	if err != nil {
		return err
	}
	srcRepo, err := openRepo(src)
	if err != nil {
		return err
	}
	defer srcRepo.Free()
	treeID, err := branchTree(srcRepo, fromRef)
	if err != nil {
		return err
	}
	if err := claimDir(dst); err != nil {
		return err
	}
	if err := generate(ctx, s.commits(), srcRepo, dst, toRef, treeID, author, committer, message(c.Message)); err != nil {
		if rmErr := os.RemoveAll(dst); rmErr != nil {
			s.log.Error("remove partly generated repository", "path", dst, "err", rmErr)
		}
		return err
	}
	return nil
}

// generate initialises dst and, when treeID is not nil, commits the tree
// (copied from srcRepo) on ref without a parent.
func generate(ctx context.Context, w commitWriter, srcRepo *git.Repository, dst, ref string, treeID *git.Oid, author, committer *git.Signature, msg string) error {
	if err := initBare(dst, ref); err != nil {
		return err
	}
	if treeID == nil {
		return nil
	}
	dstRepo, err := openRepo(dst)
	if err != nil {
		return err
	}
	defer dstRepo.Free()
	if err := copyTree(ctx, srcRepo, dstRepo, treeID); err != nil {
		return err
	}
	if _, err := w.write(dstRepo, ref, author, committer, msg, treeID); err != nil {
		return fmt.Errorf("libgit2: create commit: %w", err)
	}
	return nil
}

// branchTree returns the tree id of the tip of ref, or nil when the branch
// does not exist.
func branchTree(repo *git.Repository, ref string) (*git.Oid, error) {
	r, err := repo.References.Lookup(ref)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("libgit2: look up %s: %w", ref, err)
	}
	defer r.Free()
	obj, err := r.Peel(git.ObjectCommit)
	if err != nil {
		return nil, fmt.Errorf("libgit2: peel %s: %w", ref, err)
	}
	defer obj.Free()
	commit, err := obj.AsCommit()
	if err != nil {
		return nil, fmt.Errorf("libgit2: peel %s: %w", ref, err)
	}
	defer commit.Free()
	return commit.TreeId(), nil
}

// copyTree writes the tree treeID and everything it reaches from srcRepo's
// object database into dstRepo's. Submodule entries point into other
// repositories and are not followed.
func copyTree(ctx context.Context, srcRepo, dstRepo *git.Repository, treeID *git.Oid) error {
	srcOdb, err := srcRepo.Odb()
	if err != nil {
		return fmt.Errorf("libgit2: source object database: %w", err)
	}
	defer srcOdb.Free()
	dstOdb, err := dstRepo.Odb()
	if err != nil {
		return fmt.Errorf("libgit2: target object database: %w", err)
	}
	defer dstOdb.Free()
	copyObject := func(id *git.Oid) error {
		if dstOdb.Exists(id) {
			return nil
		}
		obj, err := srcOdb.Read(id)
		if err != nil {
			return fmt.Errorf("libgit2: read object %s: %w", id, err)
		}
		// obj.Data points into obj, so obj is freed only after the write.
		_, err = dstOdb.Write(obj.Data(), obj.Type())
		obj.Free()
		if err != nil {
			return fmt.Errorf("libgit2: write object %s: %w", id, err)
		}
		return nil
	}
	if err := copyObject(treeID); err != nil {
		return err
	}
	tree, err := srcRepo.LookupTree(treeID)
	if err != nil {
		return fmt.Errorf("libgit2: look up tree: %w", err)
	}
	defer tree.Free()
	return tree.Walk(func(_ string, e *git.TreeEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Type == git.ObjectCommit {
			return nil
		}
		return copyObject(e.Id)
	})
}
