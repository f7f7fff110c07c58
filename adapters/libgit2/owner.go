package libgit2

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// MoveOwner renames an owner's directory after the account is renamed. An
// owner without repositories has no directory, which is fine; a target that
// exists and is empty (left by deletions) is replaced, one that holds
// repositories is a conflict.
func (s *Storage) MoveOwner(ctx context.Context, from, to string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	from, to = strings.ToLower(from), strings.ToLower(to)
	if from == to {
		return nil
	}
	src, err := s.ownerDir(ports.RepoPath{Owner: from})
	if err != nil {
		return err
	}
	dst, err := s.ownerDir(ports.RepoPath{Owner: to})
	if err != nil {
		return err
	}
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dst); err == nil {
		if len(entries) > 0 {
			return errs.Conflict("repository files of the new owner name already exist")
		}
		if err := os.Remove(dst); err != nil {
			return err
		}
	}
	return os.Rename(src, dst)
}
