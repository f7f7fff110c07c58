package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

var pinMapping = mapping{op: "issue pin", notFound: "issue does not exist"}

// pinState is what the pin writes need of an issue.
type pinState struct {
	RepoID   int64 `bun:"repo_id"`
	IsPull   bool  `bun:"is_pull"`
	PinOrder int   `bun:"pin_order"`
}

// pinned reads the issue's pin state after locking its repository's row
// (on Postgres), so pin writes of one repository run one at a time and the
// positions stay dense.
func pinned(ctx context.Context, tx bun.IDB, issueID int64) (pinState, error) {
	var p pinState
	err := tx.NewSelect().Table("issues").Column("repo_id", "is_pull", "pin_order").Where("id = ?", issueID).Scan(ctx, &p)
	if err != nil {
		return p, pinMapping.mapErr(err)
	}
	if err := lockRows(ctx, tx, "repos", []int64{p.RepoID}); err != nil {
		return p, pinMapping.mapErr(err)
	}
	// Read again under the lock: another writer may have moved it.
	err = tx.NewSelect().Table("issues").Column("repo_id", "is_pull", "pin_order").Where("id = ?", issueID).Scan(ctx, &p)
	return p, pinMapping.mapErr(err)
}

func countPinned(ctx context.Context, tx bun.IDB, p pinState) (int, error) {
	n, err := tx.NewSelect().Table("issues").Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull).
		Where("pin_order > 0").Count(ctx)
	return int(n), pinMapping.mapErr(err)
}

// Pin puts the issue last among the pinned ones of its kind.
func (st *IssueRelationStore) Pin(ctx context.Context, issueID int64) (int, error) {
	var pos int
	err := st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil {
			return err
		}
		if p.PinOrder > 0 {
			pos = p.PinOrder
			return nil
		}
		n, err := countPinned(ctx, tx, p)
		if err != nil {
			return err
		}
		pos = n + 1
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = ?", pos).Where("id = ?", issueID).Exec(ctx)
		return pinMapping.mapErr(err)
	})
	return pos, err
}

// Unpin clears the issue's position and moves the ones after it up.
func (st *IssueRelationStore) Unpin(ctx context.Context, issueID int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil || p.PinOrder == 0 {
			return err
		}
		if _, err := tx.NewUpdate().Table("issues").Set("pin_order = 0").Where("id = ?", issueID).Exec(ctx); err != nil {
			return pinMapping.mapErr(err)
		}
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = pin_order - 1").
			Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull).Where("pin_order > ?", p.PinOrder).Exec(ctx)
		return pinMapping.mapErr(err)
	})
}

// MovePin shifts the issues between the old and new positions by one and
// puts the issue at the new one (clamped to the last position).
func (st *IssueRelationStore) MovePin(ctx context.Context, issueID int64, position int) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil {
			return err
		}
		if p.PinOrder == 0 {
			return errs.NotFound("issue is not pinned")
		}
		n, err := countPinned(ctx, tx, p)
		if err != nil {
			return err
		}
		to, err := issue.PinPosition(position, n)
		if err != nil || to == p.PinOrder {
			return err
		}
		shift := tx.NewUpdate().Table("issues").Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull)
		if to < p.PinOrder {
			shift = shift.Set("pin_order = pin_order + 1").Where("pin_order >= ?", to).Where("pin_order < ?", p.PinOrder)
		} else {
			shift = shift.Set("pin_order = pin_order - 1").Where("pin_order > ?", p.PinOrder).Where("pin_order <= ?", to)
		}
		if _, err := shift.Exec(ctx); err != nil {
			return pinMapping.mapErr(err)
		}
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = ?", to).Where("id = ?", issueID).Exec(ctx)
		return pinMapping.mapErr(err)
	})
}

// Pinned lists the pinned issues of one kind in pin order.
func (st *IssueRelationStore) Pinned(ctx context.Context, repoID int64, isPull bool) ([]int64, error) {
	ids := []int64{}
	err := st.c.r(ctx).NewSelect().Table("issues").Column("id").Where("repo_id = ?", repoID).
		Where("is_pull = ?", isPull).Where("pin_order > 0").OrderExpr("pin_order ASC, id ASC").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, pinMapping.mapErr(err)
	}
	return ids, nil
}
