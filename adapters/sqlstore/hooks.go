package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

var _ ports.HookStore = (*HookStore)(nil)

// hookRow is the query model of webhooks.
type hookRow struct {
	bun.BaseModel `bun:"table:webhooks,alias:wh"`

	ID                  int64     `bun:"id,pk,autoincrement"`
	RepoID              int64     `bun:"repo_id,nullzero"`
	OwnerID             int64     `bun:"owner_id,nullzero"`
	IsSystem            bool      `bun:"is_system"`
	Kind                string    `bun:"kind"`
	URL                 string    `bun:"url"`
	HTTPMethod          string    `bun:"http_method"`
	ContentType         string    `bun:"content_type"`
	Secret              string    `bun:"secret"`
	Events              string    `bun:"events"`
	BranchFilter        string    `bun:"branch_filter"`
	AuthorizationHeader string    `bun:"authorization_header"`
	Meta                string    `bun:"meta"`
	Active              bool      `bun:"active"`
	Created             time.Time `bun:"created,nullzero"`
	Updated             time.Time `bun:"updated,nullzero"`
}

var hookMapping = mapping{
	op:         "webhooks",
	notFound:   "hook does not exist",
	missingRef: "the hook's repository or account does not exist",
}

func toHookRow(h *hook.Hook) (*hookRow, error) {
	meta := ""
	if len(h.Meta) > 0 {
		b, err := json.Marshal(h.Meta)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: encode hook meta: %w", err)
		}
		meta = string(b)
	}
	return &hookRow{
		ID: h.ID, RepoID: h.Scope.RepoID, OwnerID: h.Scope.OwnerID,
		IsSystem: h.Scope.IsAdmin() && h.Scope.System, Kind: string(h.TypeName()),
		URL: h.URL, HTTPMethod: h.HTTPMethod, ContentType: string(h.ContentType), Secret: h.Secret,
		Events: strings.Join(h.Events, ","), BranchFilter: h.BranchFilter,
		AuthorizationHeader: h.AuthorizationHeader, Meta: meta, Active: h.Active,
		Created: dbTime(h.Created), Updated: dbTime(h.Updated),
	}, nil
}

func (r *hookRow) toDomain() (*hook.Hook, error) {
	kind, ok := hook.ParseKind(r.Kind)
	if !ok {
		return nil, fmt.Errorf("sqlstore: hook %d has unknown kind %q", r.ID, r.Kind)
	}
	h := &hook.Hook{
		ID: r.ID, Scope: hook.Scope{RepoID: r.RepoID, OwnerID: r.OwnerID}, Kind: kind, KindName: hook.Kind(r.Kind),
		URL: r.URL, HTTPMethod: r.HTTPMethod, ContentType: hook.ContentType(r.ContentType), Secret: r.Secret,
		BranchFilter: r.BranchFilter, AuthorizationHeader: r.AuthorizationHeader, Active: r.Active,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated),
	}
	if h.Scope.IsAdmin() {
		h.Scope.System, h.Scope.Default = r.IsSystem, !r.IsSystem
	}
	if r.Events != "" {
		h.Events = strings.Split(r.Events, ",")
	}
	if r.Meta != "" {
		if err := json.Unmarshal([]byte(r.Meta), &h.Meta); err != nil {
			return nil, fmt.Errorf("sqlstore: decode hook %d meta: %w", r.ID, err)
		}
	}
	return h, nil
}

func hooksToDomain(rows []hookRow) ([]*hook.Hook, error) {
	out := make([]*hook.Hook, 0, len(rows))
	for i := range rows {
		h, err := rows[i].toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// HookStore is the SQL implementation of ports.HookStore.
type HookStore struct{ c conn }

// whereScope restricts q to scope's hooks. anyAdminKind makes a site scope
// match system and default hooks alike (Update finds a hook whose kind the
// edit changes).
func whereScope(q bun.QueryBuilder, s hook.Scope, anyAdminKind bool) bun.QueryBuilder {
	switch {
	case s.RepoID != 0:
		return q.Where("repo_id = ?", s.RepoID)
	case s.OwnerID != 0:
		return q.Where("owner_id = ?", s.OwnerID)
	}
	q = q.Where("repo_id IS NULL").Where("owner_id IS NULL")
	if !anyAdminKind && s.System != s.Default {
		q = q.Where("is_system = ?", s.System)
	}
	return q
}

// Create inserts h and sets h.ID.
func (s *HookStore) Create(ctx context.Context, h *hook.Hook) error {
	row, err := toHookRow(h)
	if err != nil {
		return err
	}
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return hookMapping.mapErr(err)
	}
	h.ID = row.ID
	return nil
}

// Update writes every field of h; the scope columns only select the row,
// except is_system, which an admin edit may change.
func (s *HookStore) Update(ctx context.Context, h *hook.Hook) error {
	row, err := toHookRow(h)
	if err != nil {
		return err
	}
	q := s.c.w(ctx).NewUpdate().Model(row).
		Column("is_system", "kind", "url", "http_method", "content_type", "secret", "events", "branch_filter",
			"authorization_header", "meta", "active", "updated").
		Where("id = ?", h.ID)
	q = whereScope(q.QueryBuilder(), h.Scope, true).Unwrap().(*bun.UpdateQuery)
	res, err := q.Exec(ctx)
	return hookMapping.affected(res, err)
}

// Delete removes one of the scope's hooks.
func (s *HookStore) Delete(ctx context.Context, scope hook.Scope, id int64) error {
	q := s.c.w(ctx).NewDelete().Model((*hookRow)(nil)).Where("id = ?", id)
	q = whereScope(q.QueryBuilder(), scope, false).Unwrap().(*bun.DeleteQuery)
	res, err := q.Exec(ctx)
	return hookMapping.affected(res, err)
}

// Get returns one of the scope's hooks.
func (s *HookStore) Get(ctx context.Context, scope hook.Scope, id int64) (*hook.Hook, error) {
	row := new(hookRow)
	q := s.c.r(ctx).NewSelect().Model(row).Where("id = ?", id)
	q = whereScope(q.QueryBuilder(), scope, false).Unwrap().(*bun.SelectQuery)
	if err := q.Scan(ctx); err != nil {
		return nil, hookMapping.mapErr(err)
	}
	return row.toDomain()
}

// List returns one page of the scope's hooks ordered by id, and the total.
func (s *HookStore) List(ctx context.Context, scope hook.Scope, opts ports.ListOptions) ([]*hook.Hook, int64, error) {
	var rows []hookRow
	q := s.c.r(ctx).NewSelect().Model(&rows)
	q = whereScope(q.QueryBuilder(), scope, false).Unwrap().(*bun.SelectQuery)
	total, err := page(q.OrderExpr("id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, hookMapping.mapErr(err)
	}
	list, err := hooksToDomain(rows)
	return list, total, err
}

// ActiveFor returns the active hooks of the repository, of its owner and of
// the site's system hooks, in one query: a UNION of three index ranges, so
// neither side of an OR makes the planner scan the table.
func (s *HookStore) ActiveFor(ctx context.Context, repoID, ownerID int64) ([]*hook.Hook, error) {
	rows, ok, err := s.activeForPrepared(ctx, repoID, ownerID)
	if !ok {
		err = s.c.r(ctx).NewRaw(activeHooksSQL, repoID, ownerID).Scan(ctx, &rows)
	}
	if err != nil {
		return nil, hookMapping.mapErr(err)
	}
	return hooksToDomain(rows)
}

// CopyDefaults copies every site default hook into the repository with one
// INSERT … SELECT.
func (s *HookStore) CopyDefaults(ctx context.Context, repoID int64, now time.Time) error {
	cols := "kind, url, http_method, content_type, secret, events, branch_filter, authorization_header, meta, active"
	_, err := s.c.w(ctx).NewRaw(`INSERT INTO webhooks (repo_id, is_system, `+cols+`, created, updated)
		SELECT ?, ?, `+cols+`, ?, ? FROM webhooks
		WHERE repo_id IS NULL AND owner_id IS NULL AND NOT is_system ORDER BY id`,
		repoID, false, dbTime(now), dbTime(now)).Exec(ctx)
	return hookMapping.mapErr(err)
}
