package memstore

import (
	"context"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.CollaboratorStore = (*CollaboratorStore)(nil)

// CollaboratorStore is the in-memory ports.CollaboratorStore.
type CollaboratorStore struct{ d *DB }

var errCollaboratorNotFound = errs.NotFound("collaborator does not exist")

// refsExist answers the missing reference of a row tying a repository and a user.
func (s *state) refsExist(repoID, userID int64) error {
	_, okR := s.repos[repoID]
	_, okU := s.users[userID]
	if !okR || !okU {
		return errs.NotFound("repository or user does not exist")
	}
	return nil
}

func (s *CollaboratorStore) Set(ctx context.Context, c repository.Collaborator) error {
	defer s.d.lock(ctx)()
	if err := s.d.s.refsExist(c.RepoID, c.UserID); err != nil {
		return err
	}
	s.d.s.collaborators[pair{c.RepoID, c.UserID}] = c
	return nil
}

func (s *CollaboratorStore) Remove(ctx context.Context, repoID, userID int64) error {
	defer s.d.lock(ctx)()
	k := pair{repoID, userID}
	if _, ok := s.d.s.collaborators[k]; !ok {
		return errCollaboratorNotFound
	}
	delete(s.d.s.collaborators, k)
	return nil
}

func (s *CollaboratorStore) Get(ctx context.Context, repoID, userID int64) (*repository.Collaborator, error) {
	defer s.d.lock(ctx)()
	c, ok := s.d.s.collaborators[pair{repoID, userID}]
	if !ok {
		return nil, errCollaboratorNotFound
	}
	return &c, nil
}

func (s *CollaboratorStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]ports.CollaboratorUser, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []ports.CollaboratorUser
	for k, c := range st.collaborators {
		if k.a != repoID {
			continue
		}
		if u, ok := st.users[k.b]; ok {
			list = append(list, ports.CollaboratorUser{User: st.userOut(u), Mode: c.Mode})
		}
	}
	slices.SortFunc(list, func(a, b ports.CollaboratorUser) int { return strings.Compare(a.User.LowerName, b.User.LowerName) })
	return page(list, opts), int64(len(list)), nil
}
