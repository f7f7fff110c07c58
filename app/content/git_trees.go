package content

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// GitTrees are the use cases of the Git trees route.
type GitTrees struct{ *Service }

// GitTrees returns the Git tree use cases.
func (s *Service) GitTrees() GitTrees { return GitTrees{s} }

// GitTreesPerPage is the default and largest page of the Git trees route,
// as Gitea's setting.
const GitTreesPerPage = 1000

// Get lists the tree sha names (a tree or commit id, a branch or tag),
// recursively when asked, one page of perPage entries (GitTreesPerPage when
// out of range). It returns the page and the page number used. A page past
// the end has no entries.
func (s GitTrees) Get(ctx context.Context, a *repos.Access, sha string, recursive bool, page, perPage int) (ports.GitTreePage, int, error) {
	if sha == "" {
		return ports.GitTreePage{}, 0, errs.BadRequest("sha not provided")
	}
	if perPage <= 0 || perPage > GitTreesPerPage {
		perPage = GitTreesPerPage
	}
	page = max(page, 1)
	offset := perPage * (page - 1)
	if offset < 0 || offset/perPage != page-1 {
		// The page number overflows: past any end.
		offset, perPage = 0, 0
	}
	if a.Repo.Empty {
		return ports.GitTreePage{}, page, errs.NotFound("sha not found [" + sha + "]")
	}
	t, err := s.git.Tree(ctx, pathOf(a.Repo), ports.GitTreeQuery{Rev: sha, Recursive: recursive, Offset: offset, Limit: perPage})
	return t, page, err
}
