package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.StarStore = (*StarStore)(nil)

// StarStore is the in-memory ports.StarStore.
type StarStore struct{ d *DB }

func (s *StarStore) Star(ctx context.Context, userID, repoID int64) error {
	defer s.d.lock(ctx)()
	if err := s.d.s.refsExist(repoID, userID); err != nil {
		return err
	}
	k := pair{userID, repoID}
	if _, ok := s.d.s.stars[k]; !ok {
		s.d.s.stars[k] = dbTime(time.Now())
	}
	return nil
}

func (s *StarStore) Unstar(ctx context.Context, userID, repoID int64) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.stars, pair{userID, repoID})
	return nil
}

func (s *StarStore) IsStarred(ctx context.Context, userID, repoID int64) (bool, error) {
	defer s.d.lock(ctx)()
	_, ok := s.d.s.stars[pair{userID, repoID}]
	return ok, nil
}

func (s *StarStore) ClearRepo(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	for k := range s.d.s.stars {
		if k.b == repoID {
			delete(s.d.s.stars, k)
		}
	}
	return nil
}

// byTimeThenID orders users by when they acted, then by id.
type timedUser struct {
	at time.Time
	u  *user.User
}

func sortTimed(list []timedUser) []*user.User {
	slices.SortFunc(list, func(a, b timedUser) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.u.ID, b.u.ID)
	})
	out := make([]*user.User, len(list))
	for i, t := range list {
		out[i] = t.u
	}
	return out
}

func (s *StarStore) Stargazers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []timedUser
	for k, at := range st.stars {
		if u, ok := st.users[k.a]; ok && k.b == repoID {
			list = append(list, timedUser{at, st.userOut(u)})
		}
	}
	all := sortTimed(list)
	return page(all, opts), int64(len(all)), nil
}
