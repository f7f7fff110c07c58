package content

import (
	"context"
	"io"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Raw is the use case of the raw and media routes: a file's bytes.
type Raw struct{ *Service }

// Raw returns the raw file use case.
func (s *Service) Raw() Raw { return Raw{s} }

// Open opens a file or symbolic link for download. With ref set, p is
// the whole path; without, p is "<ref>/<path>" (the ref may contain
// slashes), or a path of the default branch when no leading part of it
// names a ref. Directories and submodules are not found. The reader must be
// closed.
func (s Raw) Open(ctx context.Context, a *repos.Access, ref, p string) (ports.GitPathResult, io.ReadCloser, error) {
	p, err := cleanPath(p)
	if err != nil {
		return ports.GitPathResult{}, nil, err
	}
	if a.Repo.Empty || p == "" {
		return ports.GitPathResult{}, nil, errs.NotFound("file does not exist")
	}
	return s.git.OpenBlob(ctx, pathOf(a.Repo), ports.GitPathQuery{Ref: refOrDefault(a, ref), RefInPath: ref == "", Path: p})
}
