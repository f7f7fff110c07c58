package sqlstore

import (
	"context"
	"sort"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.BlockStore = (*BlockStore)(nil)

var blockMapping = mapping{
	op: "user block", notFound: "user is not blocked", conflict: "user is already blocked",
	missingRef: "user does not exist",
}

type blockRow struct {
	bun.BaseModel `bun:"table:user_blocks,alias:ub"`

	ID        int64     `bun:"id,pk,autoincrement"`
	BlockerID int64     `bun:"blocker_id"`
	BlockeeID int64     `bun:"blockee_id"`
	Note      string    `bun:"note"`
	CreatedAt time.Time `bun:"created_at"`
}

// BlockStore is the SQL implementation of ports.BlockStore.
type BlockStore struct{ c conn }

// Block records b and sets b.ID; a pair blocked already is a conflict.
func (s *BlockStore) Block(ctx context.Context, b *user.Block) error {
	row := &blockRow{BlockerID: b.BlockerID, BlockeeID: b.BlockeeID, Note: b.Note, CreatedAt: dbTime(b.Created)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return blockMapping.mapErr(err)
	}
	b.ID = row.ID
	return nil
}

// Unblock deletes the pair's row; errs.ErrNotFound when there was none.
func (s *BlockStore) Unblock(ctx context.Context, blockerID, blockeeID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*blockRow)(nil)).
		Where("blocker_id = ?", blockerID).Where("blockee_id = ?", blockeeID).Exec(ctx)
	return blockMapping.affected(res, err)
}

// IsBlocked probes the pair's unique index.
func (s *BlockStore) IsBlocked(ctx context.Context, blockerID, blockeeID int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*blockRow)(nil)).
		Where("ub.blocker_id = ?", blockerID).Where("ub.blockee_id = ?", blockeeID).Exists(ctx)
	return ok, blockMapping.mapErr(err)
}

// IsBlockedByAny probes the blockee index once for all blockers.
func (s *BlockStore) IsBlockedByAny(ctx context.Context, blockeeID int64, blockerIDs []int64) (bool, error) {
	if len(blockerIDs) == 0 {
		return false, nil
	}
	ok, err := s.c.r(ctx).NewSelect().Model((*blockRow)(nil)).
		Where("ub.blockee_id = ?", blockeeID).Where("ub.blocker_id IN (?)", bun.List(blockerIDs)).Exists(ctx)
	return ok, blockMapping.mapErr(err)
}

// IsBlockedEither checks both directions in one query.
func (s *BlockStore) IsBlockedEither(ctx context.Context, a, b int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*blockRow)(nil)).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("ub.blocker_id = ?", a).Where("ub.blockee_id = ?", b)
			}).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("ub.blocker_id = ?", b).Where("ub.blockee_id = ?", a)
			})
		}).Exists(ctx)
	return ok, blockMapping.mapErr(err)
}

// List joins the blocked accounts in the same query, the earliest block first.
func (s *BlockStore) List(ctx context.Context, blockerID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN user_blocks AS ub ON ub.blockee_id = u.id").
		Where("ub.blocker_id = ?", blockerID).
		OrderExpr("ub.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, blockMapping.mapErr(err)
	}
	return usersToDomain(rows), total, nil
}

// The statements of SeverTies. ?0 and ?1 are the two accounts; each clause
// names one direction and then the other.
const (
	// tiedReposSQL finds the repositories whose counters a severance changes:
	// those of one account starred or watched by the other.
	tiedReposSQL = `SELECT s.repo_id FROM stars AS s JOIN repos AS r ON r.id = s.repo_id
	WHERE (s.user_id = ?0 AND r.owner_id = ?1) OR (s.user_id = ?1 AND r.owner_id = ?0)
	UNION
	SELECT w.repo_id FROM watches AS w JOIN repos AS r ON r.id = w.repo_id
	WHERE (w.user_id = ?0 AND r.owner_id = ?1) OR (w.user_id = ?1 AND r.owner_id = ?0)`
	// severWhere picks, in a table with user_id and repo_id, the rows of
	// one account on the other's repositories.
	severWhere = ` WHERE
	(user_id = ?0 AND repo_id IN (SELECT id FROM repos WHERE owner_id = ?1))
	OR (user_id = ?1 AND repo_id IN (SELECT id FROM repos WHERE owner_id = ?0))`
	severStarsSQL          = `DELETE FROM stars` + severWhere
	severWatchesSQL        = `DELETE FROM watches` + severWhere
	severCollaborationsSQL = `DELETE FROM collaborations` + severWhere
	// severAssigneesSQL unassigns each from the issues of the other's
	// repositories (Gitea's unassignIssues).
	severAssigneesSQL = `DELETE FROM issue_assignees WHERE
	(user_id = ?0 AND issue_id IN (SELECT i.id FROM issues AS i JOIN repos AS r ON r.id = i.repo_id WHERE r.owner_id = ?1))
	OR (user_id = ?1 AND issue_id IN (SELECT i.id FROM issues AS i JOIN repos AS r ON r.id = i.repo_id WHERE r.owner_id = ?0))`
	// severTransfersSQL deletes the offers between the two, whichever of
	// them made the offer or owns the repository offered.
	severTransfersSQL = `DELETE FROM repo_transfers WHERE
	(recipient_id = ?1 AND (doer_id = ?0 OR repo_id IN (SELECT id FROM repos WHERE owner_id = ?0)))
	OR (recipient_id = ?0 AND (doer_id = ?1 OR repo_id IN (SELECT id FROM repos WHERE owner_id = ?1)))`
	recountTiedReposSQL = `UPDATE repos SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.repo_id = repos.id),
	num_watches = (SELECT count(*) FROM watches WHERE watches.repo_id = repos.id AND watches.mode IN (1, 3))
	WHERE repos.id IN (?)`
	recountTiedUsersSQL = `UPDATE users SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.user_id = users.id)
	WHERE users.id IN (?)`
)

// SeverTies deletes the ties in a handful of statements, whatever their
// number, after locking the repositories whose counters it recounts.
func (s *BlockStore) SeverTies(ctx context.Context, a, b int64) (ports.SeveredTies, error) {
	var out ports.SeveredTies
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var repoIDs []int64
		if err := tx.NewRaw(tiedReposSQL, a, b).Scan(ctx, &repoIDs); err != nil {
			return blockMapping.mapErr(err)
		}
		sort.Slice(repoIDs, func(i, j int) bool { return repoIDs[i] < repoIDs[j] })
		if err := lockRows(ctx, tx, "repos", repoIDs); err != nil {
			return blockMapping.mapErr(err)
		}
		var err error
		for _, t := range []struct {
			query string
			n     *int64
		}{{severStarsSQL, &out.Stars}, {severWatchesSQL, &out.Watches},
			{severCollaborationsSQL, &out.Collaborations}, {severTransfersSQL, &out.Transfers},
			{severAssigneesSQL, &out.Assignments}} {
			if *t.n, err = execCount(ctx, tx, t.query, a, b); err != nil {
				return err
			}
		}
		if len(repoIDs) > 0 {
			if _, err := tx.ExecContext(ctx, recountTiedReposSQL, bun.List(repoIDs)); err != nil {
				return blockMapping.mapErr(err)
			}
		}
		if out.Stars > 0 {
			if _, err := tx.ExecContext(ctx, recountTiedUsersSQL, bun.List([]int64{a, b})); err != nil {
				return blockMapping.mapErr(err)
			}
		}
		return nil
	})
	return out, err
}

// execCount runs a statement and returns how many rows it changed.
func execCount(ctx context.Context, tx bun.IDB, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, blockMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	return n, blockMapping.mapErr(err)
}
