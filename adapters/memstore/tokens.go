package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

var _ ports.AccessTokenStore = (*TokenStore)(nil)

// TokenStore is the in-memory ports.AccessTokenStore.
type TokenStore struct{ d *DB }

var errTokenNotFound = errs.NotFound("access token does not exist")

func tokenOut(t token.AccessToken) *token.AccessToken {
	t.Scopes = slices.Clone(t.Scopes)
	return &t
}

func (s *TokenStore) Create(ctx context.Context, t *token.AccessToken) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	for _, o := range st.tokens {
		if o.UserID == t.UserID && o.Name == t.Name || o.Hash == t.Hash {
			return errs.Conflict("access token name has been used already")
		}
	}
	if _, ok := st.users[t.UserID]; !ok {
		return errUserNotFound
	}
	row := *tokenOut(*t)
	row.Created, row.LastUsed = dbTime(row.Created), dbTime(row.LastUsed)
	row.ID = st.next("tokens")
	st.tokens[row.ID] = row
	t.ID = row.ID
	return nil
}

func (s *TokenStore) ListByUser(ctx context.Context, userID int64, opts ports.ListOptions) ([]*token.AccessToken, int64, error) {
	defer s.d.lock(ctx)()
	var list []*token.AccessToken
	for _, id := range sortedKeys(s.d.s.tokens) {
		if t := s.d.s.tokens[id]; t.UserID == userID {
			list = append(list, tokenOut(t))
		}
	}
	return page(list, opts), int64(len(list)), nil
}

func (s *TokenStore) FindByLastEight(ctx context.Context, lastEight string) ([]*token.AccessToken, error) {
	defer s.d.lock(ctx)()
	out := []*token.AccessToken{}
	for _, id := range sortedKeys(s.d.s.tokens) {
		if t := s.d.s.tokens[id]; t.LastEight == lastEight {
			out = append(out, tokenOut(t))
		}
	}
	return out, nil
}

func (s *TokenStore) GetByID(ctx context.Context, userID, id int64) (*token.AccessToken, error) {
	defer s.d.lock(ctx)()
	t, ok := s.d.s.tokens[id]
	if !ok || t.UserID != userID {
		return nil, errTokenNotFound
	}
	return tokenOut(t), nil
}

func (s *TokenStore) GetByName(ctx context.Context, userID int64, name string) (*token.AccessToken, error) {
	defer s.d.lock(ctx)()
	for _, t := range s.d.s.tokens {
		if t.UserID == userID && t.Name == name {
			return tokenOut(t), nil
		}
	}
	return nil, errTokenNotFound
}

func (s *TokenStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.tokens[id]; !ok {
		return errTokenNotFound
	}
	delete(s.d.s.tokens, id)
	return nil
}

func (s *TokenStore) TouchLastUsed(ctx context.Context, used map[int64]time.Time) error {
	defer s.d.lock(ctx)()
	for id, at := range used {
		t, ok := s.d.s.tokens[id]
		if !ok {
			continue
		}
		at = dbTime(at)
		if t.LastUsed.IsZero() || t.LastUsed.Before(at) {
			t.LastUsed = at
			s.d.s.tokens[id] = t
		}
	}
	return nil
}
