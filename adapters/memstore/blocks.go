package memstore

import (
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.BlockStore = (*BlockStore)(nil)

// BlockStore is the in-memory ports.BlockStore.
type BlockStore struct{ d *DB }

func (s *state) blockOf(blockerID, blockeeID int64) (user.Block, bool) {
	for _, b := range s.blocks {
		if b.BlockerID == blockerID && b.BlockeeID == blockeeID {
			return b, true
		}
	}
	return user.Block{}, false
}

func (s *BlockStore) Block(ctx context.Context, b *user.Block) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.blockOf(b.BlockerID, b.BlockeeID); ok {
		return errs.Conflict("user is already blocked")
	}
	_, okA := st.users[b.BlockerID]
	_, okB := st.users[b.BlockeeID]
	if !okA || !okB {
		return errUserNotFound
	}
	row := *b
	row.Created = dbTime(row.Created)
	row.ID = st.next("blocks")
	st.blocks[row.ID] = row
	b.ID = row.ID
	return nil
}

func (s *BlockStore) Unblock(ctx context.Context, blockerID, blockeeID int64) error {
	defer s.d.lock(ctx)()
	b, ok := s.d.s.blockOf(blockerID, blockeeID)
	if !ok {
		return errs.NotFound("user is not blocked")
	}
	delete(s.d.s.blocks, b.ID)
	return nil
}

func (s *BlockStore) IsBlocked(ctx context.Context, blockerID, blockeeID int64) (bool, error) {
	defer s.d.lock(ctx)()
	_, ok := s.d.s.blockOf(blockerID, blockeeID)
	return ok, nil
}

func (s *BlockStore) IsBlockedByAny(ctx context.Context, blockeeID int64, blockerIDs []int64) (bool, error) {
	defer s.d.lock(ctx)()
	for _, b := range s.d.s.blocks {
		if b.BlockeeID == blockeeID && slices.Contains(blockerIDs, b.BlockerID) {
			return true, nil
		}
	}
	return false, nil
}

func (s *BlockStore) IsBlockedEither(ctx context.Context, a, b int64) (bool, error) {
	defer s.d.lock(ctx)()
	_, ab := s.d.s.blockOf(a, b)
	_, ba := s.d.s.blockOf(b, a)
	return ab || ba, nil
}

func (s *BlockStore) List(ctx context.Context, blockerID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []*user.User
	for _, id := range sortedKeys(st.blocks) {
		b := st.blocks[id]
		if u, ok := st.users[b.BlockeeID]; ok && b.BlockerID == blockerID {
			list = append(list, st.userOut(u))
		}
	}
	return page(list, opts), int64(len(list)), nil
}

func (s *BlockStore) SeverTies(ctx context.Context, a, b int64) (ports.SeveredTies, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var out ports.SeveredTies
	ownedBy := func(repoID int64) int64 { return st.repos[repoID].Owner.ID }
	// tied reports whether user u's row on repository repoID ties a and b.
	tied := func(u, repoID int64) bool {
		o := ownedBy(repoID)
		return u == a && o == b || u == b && o == a
	}
	for k := range st.stars {
		if tied(k.a, k.b) {
			delete(st.stars, k)
			out.Stars++
		}
	}
	for k := range st.watches {
		if tied(k.a, k.b) {
			delete(st.watches, k)
			out.Watches++
		}
	}
	for k := range st.collaborators {
		if tied(k.b, k.a) {
			delete(st.collaborators, k)
			out.Collaborations++
		}
	}
	for k, t := range st.transfers {
		o := ownedBy(t.RepoID)
		if t.RecipientID == b && (t.DoerID == a || o == a) || t.RecipientID == a && (t.DoerID == b || o == b) {
			delete(st.transfers, k)
			out.Transfers++
		}
	}
	for id, users := range st.assignees {
		i, ok := st.issues[id]
		if !ok {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(users), func(u int64) bool { return tied(u, i.RepoID) })
		if n := len(users) - len(kept); n > 0 {
			out.Assignments += int64(n)
			st.assignees[id] = kept
		}
	}
	return out, nil
}
