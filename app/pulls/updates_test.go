package pulls

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// tipsGit answers branch tips from a map (the rest of GitContent is unused).
type tipsGit struct {
	ports.GitContent
	tips map[string]string
}

func (g tipsGit) Branch(_ context.Context, _ ports.RepoPath, name string) (ports.GitBranch, error) {
	id, ok := g.tips[name]
	if !ok {
		return ports.GitBranch{}, errs.NotFound("no branch")
	}
	return ports.GitBranch{Name: name, Commit: ports.GitCommitInfo{ID: id}}, nil
}

// movedHeadPulls is a Git whose head branch moves between the read and
// the compare-and-swap: UpdateRef loses.
type movedHeadPulls struct {
	ports.GitPulls
	updates int
}

func (movedHeadPulls) IsAncestor(_ context.Context, _ ports.RepoPath, a, b string) (bool, error) {
	return a == "old" && b == "base", nil // the head is behind the base only
}

func (m *movedHeadPulls) UpdateRef(_ context.Context, _ ports.RepoPath, ref, newID, oldID string) error {
	m.updates++
	if ref != "refs/heads/feature" || newID != "base" || oldID != "old" {
		return errors.New("unexpected update")
	}
	return errs.Conflict("ref moved")
}

// TestSyncBranchHeadMoved: a head that moved after it was read is not
// overwritten; the update answers 409 and records nothing (the service has
// no transactor: recording would panic).
func TestSyncBranchHeadMoved(t *testing.T) {
	is := is.New(t)
	gp := &movedHeadPulls{}
	s := &Service{git: tipsGit{tips: map[string]string{"feature": "old", "main": "base"}}, pulls: gp}
	r := &repository.Repository{ID: 1, Name: "app", Owner: repository.Owner{Name: "alice"}}
	_, err := s.syncBranch(context.Background(), branchSync{from: r, fromBranch: "main", to: r, toBranch: "feature",
		doer: &user.User{ID: 1, Name: "alice"}, fastForward: true})
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(errs.Message(err), msgHeadMoved)
	is.Equal(gp.updates, 1)
}
