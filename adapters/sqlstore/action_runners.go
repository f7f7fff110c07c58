package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionRunnerMapping = mapping{
	op: "action runner", notFound: "runner not found", conflict: "runner already exists",
	missingRef: "runner owner does not exist",
}

var _ ports.ActionRunnerStore = (*ActionRunnerStore)(nil)

// ActionRunnerStore is the SQL implementation of ports.ActionRunnerStore
// over action_runners (migration 000044).
type ActionRunnerStore struct{ c conn }

type actionRunnerRow struct {
	bun.BaseModel `bun:"table:action_runners,alias:arn"`

	ID         int64      `bun:"id,pk,autoincrement"`
	UUID       string     `bun:"uuid"`
	Name       string     `bun:"name"`
	OwnerID    int64      `bun:"owner_id,nullzero"`
	RepoID     int64      `bun:"repo_id,nullzero"`
	TokenHash  string     `bun:"token_hash"`
	Labels     string     `bun:"labels"`
	Version    string     `bun:"version"`
	Ephemeral  bool       `bun:"ephemeral"`
	LastOnline *time.Time `bun:"last_online"`
	LastActive *time.Time `bun:"last_active"`
	Created    time.Time  `bun:"created"`
}

func (r *actionRunnerRow) toDomain() *actions.Runner {
	return &actions.Runner{ID: r.ID, UUID: r.UUID, Name: r.Name, Scope: actions.Scope{OwnerID: r.OwnerID, RepoID: r.RepoID},
		TokenHash: r.TokenHash, Labels: splitLines(r.Labels), Version: r.Version, Ephemeral: r.Ephemeral,
		LastOnline: timeOrZero(r.LastOnline), LastActive: timeOrZero(r.LastActive), Created: domainTime(r.Created)}
}

// runnerScope narrows a runners query to the scope's rows.
func runnerScope(q *bun.SelectQuery, s actions.Scope) *bun.SelectQuery {
	switch {
	case s.RepoID != 0:
		return q.Where("arn.repo_id = ?", s.RepoID)
	case s.OwnerID != 0:
		return q.Where("arn.owner_id = ?", s.OwnerID)
	}
	return q.Where("arn.owner_id IS NULL").Where("arn.repo_id IS NULL")
}

// Create inserts r.
func (s *ActionRunnerStore) Create(ctx context.Context, r *actions.Runner) error {
	row := &actionRunnerRow{UUID: r.UUID, Name: r.Name, OwnerID: r.Scope.OwnerID, RepoID: r.Scope.RepoID,
		TokenHash: r.TokenHash, Labels: joinLines(r.Labels), Version: r.Version, Ephemeral: r.Ephemeral,
		Created: dbTime(r.Created)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return actionRunnerMapping.mapErr(err)
	}
	r.ID = row.ID
	return nil
}

// ByUUID finds a runner by its uuid.
func (s *ActionRunnerStore) ByUUID(ctx context.Context, uuid string) (*actions.Runner, error) {
	row := new(actionRunnerRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("uuid = ?", uuid).Scan(ctx); err != nil {
		return nil, actionRunnerMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Get finds the scope's runner id.
func (s *ActionRunnerStore) Get(ctx context.Context, scope actions.Scope, id int64) (*actions.Runner, error) {
	row := new(actionRunnerRow)
	if err := runnerScope(s.c.r(ctx).NewSelect().Model(row), scope).Where("arn.id = ?", id).Scan(ctx); err != nil {
		return nil, actionRunnerMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the scope's runners in id order.
func (s *ActionRunnerStore) List(ctx context.Context, scope actions.Scope, opts ports.ListOptions) ([]*actions.Runner, int64, error) {
	var rows []actionRunnerRow
	q := runnerScope(s.c.r(ctx).NewSelect().Model(&rows), scope).OrderExpr("arn.id ASC")
	total, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, actionRunnerMapping.mapErr(err)
	}
	return domainAll(rows, (*actionRunnerRow).toDomain), total, nil
}

// Delete removes the scope's runner id.
func (s *ActionRunnerStore) Delete(ctx context.Context, scope actions.Scope, id int64) error {
	q := s.c.w(ctx).NewDelete().Model((*actionRunnerRow)(nil)).Where("id = ?", id)
	switch {
	case scope.RepoID != 0:
		q = q.Where("repo_id = ?", scope.RepoID)
	case scope.OwnerID != 0:
		q = q.Where("owner_id = ?", scope.OwnerID)
	default:
		q = q.Where("owner_id IS NULL").Where("repo_id IS NULL")
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return actionRunnerMapping.mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.NotFound(actionRunnerMapping.notFound)
	}
	return nil
}

// Declare sets the runner's labels and version.
func (s *ActionRunnerStore) Declare(ctx context.Context, id int64, labels []string, version string) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*actionRunnerRow)(nil)).Set("labels = ?", joinLines(labels)).
		Set("version = ?", version).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return actionRunnerMapping.mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.NotFound(actionRunnerMapping.notFound)
	}
	return nil
}

// Seen records a request of the runner, and a report when active.
func (s *ActionRunnerStore) Seen(ctx context.Context, id int64, now time.Time, active bool) error {
	at := dbTime(now)
	q := s.c.w(ctx).NewUpdate().Model((*actionRunnerRow)(nil)).Set("last_online = ?", at).Where("id = ?", id)
	if active {
		q = q.Set("last_active = ?", at)
	}
	_, err := q.Exec(ctx)
	return actionRunnerMapping.mapErr(err)
}
