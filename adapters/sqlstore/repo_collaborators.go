package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var collaboratorMapping = mapping{
	op: "collaborator", notFound: "collaborator does not exist", missingRef: "repository or user does not exist",
}

var _ ports.CollaboratorStore = (*CollaboratorStore)(nil)

// CollaboratorStore is the SQL implementation of ports.CollaboratorStore.
type CollaboratorStore struct{ c conn }

// Set adds a collaborator or changes its mode in one upsert.
func (s *CollaboratorStore) Set(ctx context.Context, c repository.Collaborator) error {
	t := now()
	row := &collaborationRow{RepoID: c.RepoID, UserID: c.UserID, Mode: int(c.Mode), Created: t, Updated: t}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (repo_id, user_id) DO UPDATE").
		Set("mode = EXCLUDED.mode").Set("updated = EXCLUDED.updated").
		Exec(ctx)
	return collaboratorMapping.mapErr(err)
}

// Remove drops a collaborator; errs.ErrNotFound when it was none.
func (s *CollaboratorStore) Remove(ctx context.Context, repoID, userID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*collaborationRow)(nil)).
		Where("repo_id = ?", repoID).Where("user_id = ?", userID).Exec(ctx)
	return collaboratorMapping.affected(res, err)
}

// Get returns one collaboration.
func (s *CollaboratorStore) Get(ctx context.Context, repoID, userID int64) (*repository.Collaborator, error) {
	row := new(collaborationRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("c.repo_id = ?", repoID).Where("c.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, collaboratorMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of collaborators with their accounts, ordered by
// user name, and the total, joining users in the same query.
func (s *CollaboratorStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]ports.CollaboratorUser, int64, error) {
	var rows []collaboratorUserRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		ColumnExpr("u.*").ColumnExpr("c.mode AS collab_mode").
		Join("JOIN collaborations AS c ON c.user_id = u.id").
		Where("c.repo_id = ?", repoID).
		OrderExpr("u.lower_name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, collaboratorMapping.mapErr(err)
	}
	out := make([]ports.CollaboratorUser, len(rows))
	for i := range rows {
		out[i] = ports.CollaboratorUser{User: rows[i].userRow.toDomain(), Mode: permission.AccessMode(rows[i].CollabMode)}
	}
	return out, total, nil
}

type collaborationRow struct {
	bun.BaseModel `bun:"table:collaborations,alias:c"`

	RepoID  int64     `bun:"repo_id,pk"`
	UserID  int64     `bun:"user_id,pk"`
	Mode    int       `bun:"mode"`
	Created time.Time `bun:"created,nullzero"`
	Updated time.Time `bun:"updated,nullzero"`
}

// collaboratorUserRow is a user joined with its collaboration's mode.
type collaboratorUserRow struct {
	userRow `bun:",extend"`

	CollabMode int `bun:"collab_mode,scanonly"`
}

func (r *collaborationRow) toDomain() *repository.Collaborator {
	return &repository.Collaborator{RepoID: r.RepoID, UserID: r.UserID, Mode: permission.AccessMode(r.Mode)}
}
