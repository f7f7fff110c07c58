package memstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.WatchStore = (*WatchStore)(nil)

// WatchStore is the in-memory ports.WatchStore.
type WatchStore struct{ d *DB }

func (s *WatchStore) Watch(ctx context.Context, userID, repoID int64) error {
	defer s.d.lock(ctx)()
	if err := s.d.s.refsExist(repoID, userID); err != nil {
		return err
	}
	k := pair{userID, repoID}
	w, ok := s.d.s.watches[k]
	if !ok {
		w = ports.Watch{UserID: userID, RepoID: repoID, Created: dbTime(time.Now())}
	}
	w.Mode = repository.WatchNormal
	s.d.s.watches[k] = w
	return nil
}

func (s *WatchStore) Unwatch(ctx context.Context, userID, repoID int64) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.watches, pair{userID, repoID})
	return nil
}

func (s *WatchStore) PruneRepo(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	r, ok := st.repos[repoID]
	if !ok {
		return nil
	}
	for k := range st.watches {
		if k.b != repoID || k.a == r.Owner.ID || st.collaborates(repoID, k.a) || st.users[k.a].IsAdmin {
			continue
		}
		delete(st.watches, k)
	}
	return nil
}

func (s *WatchStore) Get(ctx context.Context, userID, repoID int64) (*ports.Watch, error) {
	defer s.d.lock(ctx)()
	w, ok := s.d.s.watches[pair{userID, repoID}]
	if !ok {
		return nil, errs.NotFound("watch does not exist")
	}
	return &w, nil
}

func (s *WatchStore) Watchers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []timedUser
	for k, w := range st.watches {
		if w.Mode != repository.WatchNormal && w.Mode != repository.WatchAuto || k.b != repoID {
			continue
		}
		if u, ok := st.users[k.a]; ok {
			list = append(list, timedUser{w.Created, st.userOut(u)})
		}
	}
	all := sortTimed(list)
	return page(all, opts), int64(len(all)), nil
}
