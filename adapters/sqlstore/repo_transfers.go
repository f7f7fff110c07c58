package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var transferMapping = mapping{
	op: "repository transfer", notFound: "no pending transfer", missingRef: "repository or user does not exist",
}

var _ ports.TransferStore = (*TransferStore)(nil)

// TransferStore is the SQL implementation of ports.TransferStore.
type TransferStore struct{ c conn }

// Create records an offer, replacing any earlier one for the repository.
func (s *TransferStore) Create(ctx context.Context, t *repository.Transfer) error {
	_, err := s.c.w(ctx).NewInsert().Model(toTransferRow(t)).
		On("CONFLICT (repo_id) DO UPDATE").
		Set("doer_id = EXCLUDED.doer_id").Set("recipient_id = EXCLUDED.recipient_id").Set("created = EXCLUDED.created").
		Exec(ctx)
	return transferMapping.mapErr(err)
}

// Get returns the repository's pending transfer.
func (s *TransferStore) Get(ctx context.Context, repoID int64) (*repository.Transfer, error) {
	row := new(transferRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("tr.repo_id = ?", repoID).Scan(ctx); err != nil {
		return nil, transferMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Delete drops the repository's pending transfer.
func (s *TransferStore) Delete(ctx context.Context, repoID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*transferRow)(nil)).Where("repo_id = ?", repoID).Exec(ctx)
	return transferMapping.affected(res, err)
}

type transferRow struct {
	bun.BaseModel `bun:"table:repo_transfers,alias:tr"`

	RepoID      int64     `bun:"repo_id,pk"`
	DoerID      int64     `bun:"doer_id"`
	RecipientID int64     `bun:"recipient_id"`
	Created     time.Time `bun:"created,nullzero"`
}

func toTransferRow(t *repository.Transfer) *transferRow {
	return &transferRow{RepoID: t.RepoID, DoerID: t.DoerID, RecipientID: t.RecipientID, Created: dbTime(t.Created)}
}

func (r *transferRow) toDomain() *repository.Transfer {
	return &repository.Transfer{RepoID: r.RepoID, DoerID: r.DoerID, RecipientID: r.RecipientID, Created: domainTime(r.Created)}
}
