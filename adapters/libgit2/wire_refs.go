package libgit2

import (
	"context"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

var _ ports.GitWireRefs = (*Storage)(nil)

// wireSymrefDepth is how many references git reads at most to resolve one
// (SYMREF_MAXDEPTH): a chain of symbolic references any longer does not
// resolve.
const wireSymrefDepth = 5

// errWireUnusual says a reference is one git would treat in a way this
// listing does not follow (a chain of symbolic references too long, a
// symbolic target that is no valid name): git answers instead.
var errWireUnusual = fmt.Errorf("libgit2: a reference git resolves differently")

// WireRefs lists HEAD and the references under refs/ for ls-refs
// (ports.GitWireRefs), as git upload-pack does: sorted by name, each as
// read even when its object is missing (git's ref paranoia, on by
// default), leaving out only symbolic references that resolve to no
// reference.
func (s *Storage) WireRefs(ctx context.Context, p ports.RepoPath, prefixes []string, peel bool) (*ports.GitWireRef, []ports.GitWireRef, error) {
	var (
		head *ports.GitWireRef
		refs []ports.GitWireRef
	)
	err := s.withReadRepo(ctx, p, func(repo *git.Repository) error {
		head, refs = nil, nil
		odb, err := repo.Odb()
		if err != nil {
			return fmt.Errorf("libgit2: open object database: %w", err)
		}
		defer odb.Free()
		if wirePrefixed("HEAD", prefixes) {
			if head, err = wireHead(repo, odb, peel); err != nil {
				return err
			}
		}
		names, err := refNamesUnder(repo, "")
		if err != nil {
			return err
		}
		for _, name := range names {
			if !strings.HasPrefix(name, "refs/") || !wirePrefixed(name, prefixes) {
				continue
			}
			target, id, symbolic, found, err := wireResolve(repo, name)
			if err != nil {
				return err
			}
			if !found {
				continue // a symbolic reference to nothing is left out
			}
			ref := ports.GitWireRef{Name: name, ObjectID: id.String()}
			if symbolic {
				ref.SymrefTarget = target
			}
			if peel {
				ref.PeeledID = wirePeel(repo, odb, id)
			}
			refs = append(refs, ref)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return head, refs, nil
}

// wirePrefixed reports whether name starts with one of prefixes, or
// whether there are none.
func wirePrefixed(name string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// wireHead reads HEAD: nil when it does not exist, no ObjectID when it
// names a branch yet to be born.
func wireHead(repo *git.Repository, odb *git.Odb, peel bool) (*ports.GitWireRef, error) {
	target, id, symbolic, found, err := wireResolve(repo, "HEAD")
	if err != nil {
		return nil, err
	}
	if !found && !symbolic {
		return nil, nil
	}
	head := &ports.GitWireRef{Name: "HEAD"}
	if symbolic {
		head.SymrefTarget = target
	}
	if found {
		head.ObjectID = id.String()
		if peel {
			head.PeeledID = wirePeel(repo, odb, id)
		}
	}
	return head, nil
}

// wireResolve follows name to the object it names as git's
// resolve_ref_unsafe does: target is the last reference read (the missing
// one when found is false), symbolic says name was a symbolic reference.
func wireResolve(repo *git.Repository, name string) (target string, id *git.Oid, symbolic, found bool, err error) {
	target = name
	for range wireSymrefDepth {
		ref, err := repo.References.Lookup(target)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return target, nil, symbolic, false, nil
			}
			return "", nil, false, false, fmt.Errorf("%w: %s: %w", errWireUnusual, target, err)
		}
		if ref.Type() != git.ReferenceSymbolic {
			id = ref.Target()
			ref.Free()
			if id == nil || id.IsZero() {
				return "", nil, false, false, fmt.Errorf("%w: %s names no object", errWireUnusual, target)
			}
			return target, id, symbolic, true, nil
		}
		next := ref.SymbolicTarget()
		ref.Free()
		if !refNameValid(next) && next != "HEAD" {
			return "", nil, false, false, fmt.Errorf("%w: %s points at %q", errWireUnusual, target, next)
		}
		target, symbolic = next, true
	}
	return "", nil, false, false, fmt.Errorf("%w: %s: symbolic references nested too deep", errWireUnusual, name)
}

// wirePeel returns the non-tag object id finally names when it is a tag,
// "" when it is none or cannot be read (git then sends no peeled value
// either).
func wirePeel(repo *git.Repository, odb *git.Odb, id *git.Oid) string {
	if _, typ, err := odb.ReadHeader(id); err != nil || typ != git.ObjectTag {
		return ""
	}
	obj, err := repo.Lookup(id)
	if err != nil {
		return ""
	}
	defer obj.Free()
	peeled, err := obj.Peel(git.ObjectAny)
	if err != nil {
		return ""
	}
	defer peeled.Free()
	return peeled.Id().String()
}
