package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionRunnerTokenMapping = mapping{
	op: "runner token", notFound: "runner registration token not found", conflict: "runner registration token already exists",
	missingRef: "runner token owner does not exist",
}

var _ ports.ActionRunnerTokenStore = (*ActionRunnerTokenStore)(nil)

// ActionRunnerTokenStore is the SQL implementation of
// ports.ActionRunnerTokenStore over action_runner_tokens (migration 000036).
type ActionRunnerTokenStore struct{ c conn }

// runnerTokenScope narrows q to the scope's rows: an account's, a
// repository's, or the site's (neither set).
func runnerTokenScope(q *bun.SelectQuery, s actions.Scope) *bun.SelectQuery {
	switch {
	case s.RepoID != 0:
		return q.Where("repo_id = ?", s.RepoID)
	case s.OwnerID != 0:
		return q.Where("owner_id = ?", s.OwnerID)
	}
	return q.Where("owner_id IS NULL").Where("repo_id IS NULL")
}

// Latest finds the scope's newest token.
func (s *ActionRunnerTokenStore) Latest(ctx context.Context, scope actions.Scope) (*actions.RunnerToken, error) {
	row := new(actionRunnerTokenRow)
	q := runnerTokenScope(s.c.r(ctx).NewSelect().Model(row), scope).OrderExpr("id DESC").Limit(1)
	if err := q.Scan(ctx); err != nil {
		return nil, actionRunnerTokenMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Replace removes the scope's tokens and inserts t.
func (s *ActionRunnerTokenStore) Replace(ctx context.Context, t *actions.RunnerToken) error {
	db := s.c.w(ctx)
	del := db.NewDelete().Model((*actionRunnerTokenRow)(nil))
	switch {
	case t.Scope.RepoID != 0:
		del = del.Where("repo_id = ?", t.Scope.RepoID)
	case t.Scope.OwnerID != 0:
		del = del.Where("owner_id = ?", t.Scope.OwnerID)
	default:
		del = del.Where("owner_id IS NULL").Where("repo_id IS NULL")
	}
	if _, err := del.Exec(ctx); err != nil {
		return actionRunnerTokenMapping.mapErr(err)
	}
	row := &actionRunnerTokenRow{
		OwnerID: t.Scope.OwnerID, RepoID: t.Scope.RepoID, TokenHash: t.Hash, Sealed: t.Sealed, Created: dbTime(t.Created),
	}
	if _, err := db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return actionRunnerTokenMapping.mapErr(err)
	}
	t.ID = row.ID
	return nil
}

// ByHash finds the token with this hash.
func (s *ActionRunnerTokenStore) ByHash(ctx context.Context, hash string) (*actions.RunnerToken, error) {
	row := new(actionRunnerTokenRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("token_hash = ?", hash).Scan(ctx); err != nil {
		return nil, actionRunnerTokenMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

type actionRunnerTokenRow struct {
	bun.BaseModel `bun:"table:action_runner_tokens,alias:art"`

	ID        int64     `bun:"id,pk,autoincrement"`
	OwnerID   int64     `bun:"owner_id,nullzero"`
	RepoID    int64     `bun:"repo_id,nullzero"`
	TokenHash string    `bun:"token_hash"`
	Sealed    string    `bun:"sealed"`
	Created   time.Time `bun:"created"`
}

func (r *actionRunnerTokenRow) toDomain() *actions.RunnerToken {
	return &actions.RunnerToken{
		ID: r.ID, Scope: actions.Scope{OwnerID: r.OwnerID, RepoID: r.RepoID}, Hash: r.TokenHash, Sealed: r.Sealed,
		Created: domainTime(r.Created),
	}
}
