package http

import (
	"errors"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// rawMissing words a path absent from the tree as Gitea 1.27's raw and
// media routes do (routers/api/v1/repo/file.go getBlobForEntry: on
// git.IsErrNotExist, "ctx.APIErrorNotFound()", whose message defaults to
// "not found" — what the SDK's GetFile test expects). Other errors pass.
func rawMissing(err error) error {
	var missing *ports.MissingPathError
	if errors.As(err, &missing) {
		return errs.NotFound("not found")
	}
	return err
}

// contentsMissing words a path absent from the tree as Gitea 1.27's
// contents route does: the error of GetTreeEntryByPath, git's ErrNotExist
// ("object does not exist [id: %s, rel_path: %s]", with no object id for a
// path looked up in a tree). Other errors pass.
func contentsMissing(err error) error {
	var missing *ports.MissingPathError
	if errors.As(err, &missing) {
		return errs.NotFound("object does not exist [id: , rel_path: " + missing.Path + "]")
	}
	return err
}
