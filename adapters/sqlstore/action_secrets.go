package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionSecretMapping = mapping{
	op: "action secret", notFound: "secret not found", conflict: "a secret with this name already exists",
	missingRef: "the secret's owner does not exist",
}

var _ ports.ActionSecretStore = (*ActionSecretStore)(nil)

// ActionSecretStore is the SQL implementation of ports.ActionSecretStore.
type ActionSecretStore struct{ c conn }

// Create inserts s and sets s.ID; a name the owner already has is a conflict.
func (s *ActionSecretStore) Create(ctx context.Context, sec *actions.Secret) error {
	row := toActionSecretRow(sec)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return actionSecretMapping.mapErr(err)
	}
	sec.ID = row.ID
	return nil
}

// Get finds owner's secret called name.
func (s *ActionSecretStore) Get(ctx context.Context, owner actions.SecretOwner, name string) (*actions.Secret, error) {
	row := new(actionSecretRow)
	err := ofSecretOwner(s.c.r(ctx).NewSelect().Model(row), owner).Where("asec.name = ?", name).Scan(ctx)
	if err != nil {
		return nil, actionSecretMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Update replaces the data and description of the owner's secret sec.ID.
func (s *ActionSecretStore) Update(ctx context.Context, sec *actions.Secret) error {
	q := s.c.w(ctx).NewUpdate().Model((*actionSecretRow)(nil)).
		Set("data = ?", sec.Data).Set("description = ?", sec.Description).Where("id = ?", sec.ID)
	res, err := ofSecretOwnerUpdate(q, sec.SecretOwner).Exec(ctx)
	return actionSecretMapping.affected(res, err)
}

// List returns one page of owner's secrets ordered by name, and the total.
func (s *ActionSecretStore) List(ctx context.Context, owner actions.SecretOwner, opts ports.ListOptions) ([]*actions.Secret, int64, error) {
	var rows []actionSecretRow
	sel := ofSecretOwner(s.c.r(ctx).NewSelect().Model(&rows), owner).OrderExpr("asec.name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, actionSecretMapping.mapErr(err)
	}
	return domainAll(rows, (*actionSecretRow).toDomain), total, nil
}

// Delete removes owner's secret called name.
func (s *ActionSecretStore) Delete(ctx context.Context, owner actions.SecretOwner, name string) error {
	q := s.c.w(ctx).NewDelete().Model((*actionSecretRow)(nil)).Where("name = ?", name)
	if owner.RepoID != 0 {
		q = q.Where("repo_id = ?", owner.RepoID)
	} else {
		q = q.Where("owner_id = ?", owner.OwnerID)
	}
	res, err := q.Exec(ctx)
	return actionSecretMapping.affected(res, err)
}

// ofSecretOwner keeps owner's rows: a repository's, or else an account's.
func ofSecretOwner(q *bun.SelectQuery, owner actions.SecretOwner) *bun.SelectQuery {
	if owner.RepoID != 0 {
		return q.Where("asec.repo_id = ?", owner.RepoID)
	}
	return q.Where("asec.owner_id = ?", owner.OwnerID)
}

func ofSecretOwnerUpdate(q *bun.UpdateQuery, owner actions.SecretOwner) *bun.UpdateQuery {
	if owner.RepoID != 0 {
		return q.Where("repo_id = ?", owner.RepoID)
	}
	return q.Where("owner_id = ?", owner.OwnerID)
}

type actionSecretRow struct {
	bun.BaseModel `bun:"table:action_secrets,alias:asec"`

	ID          int64     `bun:"id,pk,autoincrement"`
	OwnerID     *int64    `bun:"owner_id"`
	RepoID      *int64    `bun:"repo_id"`
	Name        string    `bun:"name"`
	Data        string    `bun:"data"`
	Description string    `bun:"description"`
	Created     time.Time `bun:"created"`
}

// nonZero is nil for 0, so the column of the owner a secret does not have is NULL.
func nonZero(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func toActionSecretRow(s *actions.Secret) *actionSecretRow {
	return &actionSecretRow{
		ID: s.ID, OwnerID: nonZero(s.OwnerID), RepoID: nonZero(s.RepoID), Name: s.Name, Data: s.Data,
		Description: s.Description, Created: dbTime(s.Created),
	}
}

func (r *actionSecretRow) toDomain() *actions.Secret {
	s := &actions.Secret{ID: r.ID, Name: r.Name, Data: r.Data, Description: r.Description, Created: domainTime(r.Created)}
	if r.OwnerID != nil {
		s.OwnerID = *r.OwnerID
	}
	if r.RepoID != nil {
		s.RepoID = *r.RepoID
	}
	return s
}
