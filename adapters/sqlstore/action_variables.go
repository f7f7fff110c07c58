package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionVariableMapping = mapping{
	op: "action variable", notFound: "variable not found", conflict: "variable name already exists",
	missingRef: "variable owner does not exist",
}

var _ ports.ActionVariableStore = (*ActionVariableStore)(nil)

// ActionVariableStore is the SQL implementation of ports.ActionVariableStore
// over the action_variables table (migration 000029).
type ActionVariableStore struct{ c conn }

// scopeWhere is the condition and argument that narrow a query to the
// scope's rows, through the scope's unique index.
func scopeWhere(s actions.Scope) (string, int64) {
	if s.RepoID != 0 {
		return "repo_id = ?", s.RepoID
	}
	return "owner_id = ?", s.OwnerID
}

// Create inserts v and sets v.ID.
func (s *ActionVariableStore) Create(ctx context.Context, v *actions.Variable) error {
	row := toActionVariableRow(v)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return actionVariableMapping.mapErr(err)
	}
	v.ID = row.ID
	return nil
}

// Get finds the scope's variable with this name.
func (s *ActionVariableStore) Get(ctx context.Context, scope actions.Scope, name string) (*actions.Variable, error) {
	row := new(actionVariableRow)
	where, id := scopeWhere(scope)
	if err := s.c.r(ctx).NewSelect().Model(row).Where(where, id).Where("name = ?", name).Scan(ctx); err != nil {
		return nil, actionVariableMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the scope's variables ordered by name, and the total.
func (s *ActionVariableStore) List(ctx context.Context, scope actions.Scope, opts ports.ListOptions) ([]*actions.Variable, int64, error) {
	var rows []actionVariableRow
	where, id := scopeWhere(scope)
	q := s.c.r(ctx).NewSelect().Model(&rows).Where(where, id).OrderExpr("name ASC")
	total, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, actionVariableMapping.mapErr(err)
	}
	return domainAll(rows, (*actionVariableRow).toDomain), total, nil
}

// Update writes v's name, data, description and updated time.
func (s *ActionVariableStore) Update(ctx context.Context, v *actions.Variable) error {
	where, id := scopeWhere(v.Scope)
	res, err := s.c.w(ctx).NewUpdate().Model((*actionVariableRow)(nil)).
		Set("name = ?", v.Name).Set("data = ?", v.Data).Set("description = ?", v.Description).
		Set("updated = ?", dbTime(v.Updated)).Where("id = ?", v.ID).Where(where, id).Exec(ctx)
	return actionVariableMapping.affected(res, err)
}

// Delete removes the scope's variable with this name.
func (s *ActionVariableStore) Delete(ctx context.Context, scope actions.Scope, name string) error {
	where, id := scopeWhere(scope)
	res, err := s.c.w(ctx).NewDelete().Model((*actionVariableRow)(nil)).Where(where, id).Where("name = ?", name).Exec(ctx)
	return actionVariableMapping.affected(res, err)
}

type actionVariableRow struct {
	bun.BaseModel `bun:"table:action_variables,alias:av"`

	ID          int64     `bun:"id,pk,autoincrement"`
	OwnerID     int64     `bun:"owner_id,nullzero"`
	RepoID      int64     `bun:"repo_id,nullzero"`
	Name        string    `bun:"name"`
	Data        string    `bun:"data"`
	Description string    `bun:"description"`
	Created     time.Time `bun:"created"`
	Updated     time.Time `bun:"updated"`
}

func toActionVariableRow(v *actions.Variable) *actionVariableRow {
	return &actionVariableRow{
		ID: v.ID, OwnerID: v.Scope.OwnerID, RepoID: v.Scope.RepoID, Name: v.Name, Data: v.Data,
		Description: v.Description, Created: dbTime(v.Created), Updated: dbTime(v.Updated),
	}
}

func (r *actionVariableRow) toDomain() *actions.Variable {
	return &actions.Variable{
		ID: r.ID, Scope: actions.Scope{OwnerID: r.OwnerID, RepoID: r.RepoID}, Name: r.Name, Data: r.Data,
		Description: r.Description, Created: domainTime(r.Created), Updated: domainTime(r.Updated),
	}
}
