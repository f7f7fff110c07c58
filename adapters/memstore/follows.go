package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.FollowStore = (*FollowStore)(nil)

// FollowStore is the in-memory ports.FollowStore; the counters are
// counted when a user is read (userOut).
type FollowStore struct{ d *DB }

func (s *FollowStore) Follow(ctx context.Context, userID, followID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	_, okA := st.users[userID]
	_, okB := st.users[followID]
	if !okA || !okB {
		return errUserNotFound
	}
	k := pair{userID, followID}
	if _, ok := st.follows[k]; !ok {
		st.follows[k] = st.next("follows")
	}
	return nil
}

func (s *FollowStore) Unfollow(ctx context.Context, userID, followID int64) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.follows, pair{userID, followID})
	return nil
}

func (s *FollowStore) IsFollowing(ctx context.Context, userID, followID int64) (bool, error) {
	defer s.d.lock(ctx)()
	_, ok := s.d.s.follows[pair{userID, followID}]
	return ok, nil
}

func (s *FollowStore) Followers(ctx context.Context, userID int64, q ports.FollowList) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	return s.d.s.followList(q, func(k pair) (int64, bool) {
		u := s.d.s.users[k.a]
		return k.a, k.b == userID && u.Kind == user.KindIndividual
	})
}

func (s *FollowStore) Following(ctx context.Context, userID int64, q ports.FollowList) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	return s.d.s.followList(q, func(k pair) (int64, bool) { return k.b, k.a == userID })
}

// followList lists, in follow order, the accounts pick keeps and the
// visibility filter lets through.
func (st *state) followList(q ports.FollowList, pick func(k pair) (int64, bool)) ([]*user.User, int64, error) {
	type hit struct {
		order int64
		u     user.User
	}
	var hits []hit
	for k, order := range st.follows {
		id, ok := pick(k)
		if !ok {
			continue
		}
		u, ok := st.users[id]
		if !ok {
			continue
		}
		if len(q.Visibilities) > 0 && !slices.Contains(q.Visibilities, u.Visibility) && u.ID != q.IncludeUserID {
			continue
		}
		hits = append(hits, hit{order, u})
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.order, b.order) })
	list := make([]*user.User, len(hits))
	for i, h := range hits {
		list[i] = st.userOut(h.u)
	}
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *FollowStore) Sever(ctx context.Context, a, b int64) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.follows, pair{a, b})
	delete(s.d.s.follows, pair{b, a})
	return nil
}
