package libgit2

/*
#cgo pkg-config: libgit2
#include <stdlib.h>
#include <string.h>
#include <git2.h>

// depot_ref_create_absent opens the bare repository at path and points name
// at hex only if name does not exist, which libgit2 checks under the
// reference's lock (a zero expected id means "absent"). It returns libgit2's
// error code and, on failure, a copy of its message in *msg.
static int depot_ref_create_absent(const char *path, const char *name, const char *hex, const char *log, char **msg) {
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	git_oid id, zero;
	int err;
	*msg = NULL;
	memset(&zero, 0, sizeof zero);
	err = git_oid_fromstr(&id, hex);
	if (err == 0)
		err = git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE, NULL);
	if (err == 0)
		err = git_reference_create_matching(&ref, repo, name, &id, 0, &zero, log);
	if (err < 0) {
		const git_error *e = git_error_last();
		if (e != NULL && e->message != NULL)
			*msg = strdup(e->message);
	}
	git_reference_free(ref);
	git_repository_free(repo);
	return err;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unsafe"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// ListRefs returns the references under prefix (ports.GitRefs).
func (s *Storage) ListRefs(ctx context.Context, p ports.RepoPath, prefix string) ([]ports.GitRef, error) {
	var out []ports.GitRef
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		names, err := refNamesUnder(repo, "")
		if err != nil {
			return err
		}
		odb, err := repo.Odb()
		if err != nil {
			return fmt.Errorf("libgit2: open object database: %w", err)
		}
		defer odb.Free()
		refs := make([]ports.GitRef, 0)
		for _, name := range names {
			// for-each-ref, which Gitea reads, lists remote-tracking refs and the
			// stash, and Gitea leaves them out.
			if strings.HasPrefix(name, "refs/remotes/") || name == "refs/stash" || !strings.HasPrefix(name, prefix) {
				continue
			}
			id, ok, err := refTargetID(repo, name)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			_, typ, err := odb.ReadHeader(id)
			if err != nil {
				// A reference to a missing object is broken; for-each-ref skips it too.
				continue
			}
			refs = append(refs, ports.GitRef{Name: name, ObjectID: id.String(), ObjectType: refObjectTypeName(typ)})
		}
		out = refs
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// refNamesUnder returns the full names of the references that start with
// prefix, sorted. Only names are read: no object is loaded.
func refNamesUnder(repo *git.Repository, prefix string) ([]string, error) {
	var (
		it  *git.ReferenceIterator
		err error
	)
	if prefix == "" {
		it, err = repo.NewReferenceIterator()
	} else {
		// Valid reference names hold no glob characters, so the prefix is
		// taken literally; libgit2's "*" also matches slashes.
		it, err = repo.NewReferenceIteratorGlob(prefix + "*")
	}
	if err != nil {
		return nil, fmt.Errorf("libgit2: list references: %w", err)
	}
	defer it.Free()
	var names []string
	iter := it.Names()
	for {
		name, err := iter.Next()
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeIterOver) {
				break
			}
			return nil, fmt.Errorf("libgit2: list references: %w", err)
		}
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// refPage returns the part of names opts asks for.
func refPage[T any](items []T, opts ports.ListOptions) []T {
	if opts.Limit <= 0 {
		return items
	}
	start := opts.Offset()
	if start >= len(items) {
		return nil
	}
	end := min(start+opts.Limit, len(items))
	return items[start:end]
}

// refTargetID returns the object the named reference points at, following
// symbolic references; ok is false when the reference does not exist.
func refTargetID(repo *git.Repository, name string) (*git.Oid, bool, error) {
	if !refNameValid(name) {
		return nil, false, nil
	}
	ref, err := repo.References.Lookup(name)
	if err != nil {
		if refMissing(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("libgit2: look up %s: %w", name, err)
	}
	defer ref.Free()
	if ref.Type() == git.ReferenceSymbolic {
		resolved, err := ref.Resolve()
		if err != nil {
			if refMissing(err) {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("libgit2: resolve %s: %w", name, err)
		}
		defer resolved.Free()
		return resolved.Target(), true, nil
	}
	return ref.Target(), true, nil
}

// refMissing reports whether err says a reference or object is absent or
// its name is not one Git accepts.
func refMissing(err error) bool {
	return git.IsErrorCode(err, git.ErrorCodeNotFound) || git.IsErrorCode(err, git.ErrorCodeInvalidSpec)
}

// refObjectTypeName is Git's name of an object type.
func refObjectTypeName(t git.ObjectType) string {
	switch t {
	case git.ObjectCommit:
		return "commit"
	case git.ObjectTree:
		return "tree"
	case git.ObjectBlob:
		return "blob"
	case git.ObjectTag:
		return "tag"
	}
	return "unknown"
}

// refValidName returns the full reference prefix+name, or an invalid error
// on field when Git would refuse it.
func refValidName(prefix, name, field string) (string, error) {
	full := prefix + name
	if name == "" || !refNameValid(full) || strings.HasPrefix(name, "-") || strings.HasSuffix(name, "/") {
		return "", errs.Invalid("is not a valid Git reference name", field)
	}
	return full, nil
}

// refClash returns the full name of a reference that stands where name (a
// full name) would need a file or a directory: one of its leading
// directories is a reference (refs/heads/a for refs/heads/a/b), or
// references live under it (refs/heads/a/b for refs/heads/a). ignore is
// left out (the reference being renamed).
func refClash(repo *git.Repository, name, ignore string) (string, error) {
	parts := strings.Split(name, "/")
	// Skip "refs" and the namespace ("heads", "tags"): never references.
	for i := 3; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		if dir == ignore {
			continue
		}
		ok, err := hasRef(repo, dir)
		if err != nil {
			return "", err
		}
		if ok {
			return dir, nil
		}
	}
	under, err := refNamesUnder(repo, name+"/")
	if err != nil {
		return "", err
	}
	for _, n := range under {
		if n != ignore {
			return n, nil
		}
	}
	return "", nil
}

// refDelete deletes the reference full if it still points where it was
// read, and returns that object id. Absent: not found with missing.
func refDelete(repo *git.Repository, full string, missing error) (string, error) {
	if !refNameValid(full) {
		return "", missing
	}
	ref, err := repo.References.Lookup(full)
	if err != nil {
		if refMissing(err) {
			return "", missing
		}
		return "", fmt.Errorf("libgit2: look up %s: %w", full, err)
	}
	defer ref.Free()
	id := ""
	if t := ref.Target(); t != nil {
		id = t.String()
	}
	// git_reference_delete refuses (GIT_EMODIFIED) when the reference no
	// longer holds the value this lookup read: a compare-and-swap.
	if err := ref.Delete(); err != nil {
		if git.IsErrorCode(err, git.ErrorCodeModified) || git.IsErrorCode(err, git.ErrorCodeLocked) {
			return "", errs.Conflict("reference " + full + " changed while deleting it")
		}
		if refMissing(err) {
			return "", missing
		}
		return "", fmt.Errorf("libgit2: delete %s: %w", full, err)
	}
	return id, nil
}

// errRefTaken says that refCreateAbsent found the name taken.
var errRefTaken = errors.New("reference exists")

// refCreateAbsent creates the reference full at id in the repository in
// dir only if it does not exist yet. git2go's Create checks existence
// before taking the reference's lock, so two concurrent creations could both
// succeed; libgit2's create-matching with a zero expected id checks under
// the lock, which makes creation a compare-and-swap. A taken name (or a
// reference locked by another writer) is errRefTaken.
func refCreateAbsent(dir, full string, id *git.Oid, logMsg string) error {
	cdir, cname, chex, clog := C.CString(dir), C.CString(full), C.CString(id.String()), C.CString(logMsg)
	defer C.free(unsafe.Pointer(cdir))
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(chex))
	defer C.free(unsafe.Pointer(clog))
	var cmsg *C.char
	code := C.depot_ref_create_absent(cdir, cname, chex, clog, &cmsg)
	if code >= 0 {
		return nil
	}
	msg := "unknown error"
	if cmsg != nil {
		msg = C.GoString(cmsg)
		C.free(unsafe.Pointer(cmsg))
	}
	switch git.ErrorCode(code) {
	case git.ErrorCodeExists, git.ErrorCodeModified, git.ErrorCodeLocked:
		return fmt.Errorf("%w: %s", errRefTaken, msg)
	case git.ErrorCodeInvalidSpec:
		return errs.Invalid("is not a valid Git reference name", "name")
	}
	return fmt.Errorf("libgit2: create %s: %s (code %d)", full, msg, int(code))
}
