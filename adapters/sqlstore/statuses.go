package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/ports"
)

var _ ports.CommitStatusStore = (*CommitStatusStore)(nil)

var commitStatusMapping = mapping{op: "commit status", missingRef: "repository does not exist"}

// commitStatusRow is the query model of commit_statuses (migration 000003).
type commitStatusRow struct {
	bun.BaseModel `bun:"table:commit_statuses,alias:cs"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id"`
	SHA         string    `bun:"sha"`
	Idx         int64     `bun:"idx"`
	State       string    `bun:"state"`
	TargetURL   string    `bun:"target_url"`
	Description string    `bun:"description"`
	Context     string    `bun:"context"`
	CreatorID   int64     `bun:"creator_id"`
	Created     time.Time `bun:"created,nullzero"`
	Updated     time.Time `bun:"updated,nullzero"`
}

func (r *commitStatusRow) toDomain() *commitstatus.Status {
	return &commitstatus.Status{
		ID: r.ID, RepoID: r.RepoID, SHA: r.SHA, Index: r.Idx, State: commitstatus.State(r.State),
		TargetURL: r.TargetURL, Description: r.Description, Context: r.Context, CreatorID: r.CreatorID,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated),
	}
}

func commitStatusesToDomain(rows []commitStatusRow) []*commitstatus.Status {
	out := make([]*commitstatus.Status, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out
}

// CommitStatusStore is the SQL implementation of ports.CommitStatusStore.
type CommitStatusStore struct{ c conn }

// nextStatusIndexSQL hands out the next n indexes of a commit in one
// statement, returning the last. On Postgres the upsert locks the counter
// row until the transaction ends, so a concurrent creation on the same
// commit waits and then counts on; SQLite has a single writer.
const nextStatusIndexSQL = `INSERT INTO commit_status_index (repo_id, sha, max_index) VALUES (?, ?, ?)
ON CONFLICT (repo_id, sha) DO UPDATE SET max_index = commit_status_index.max_index + excluded.max_index
RETURNING max_index`

// Create takes the commit's next index and inserts s in one transaction.
func (s *CommitStatusStore) Create(ctx context.Context, st *commitstatus.Status) error {
	return s.CreateMany(ctx, []*commitstatus.Status{st})
}

// CreateMany takes each commit's next indexes with one statement a commit
// and inserts the statuses with multi-row INSERTs, in one transaction.
func (s *CommitStatusStore) CreateMany(ctx context.Context, list []*commitstatus.Status) error {
	if len(list) == 0 {
		return nil
	}
	type commit struct {
		repoID int64
		sha    string
	}
	counts := map[commit]int64{}
	var order []commit
	for _, st := range list {
		c := commit{st.RepoID, st.SHA}
		if counts[c] == 0 {
			order = append(order, c)
		}
		counts[c]++
	}
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		next := make(map[commit]int64, len(order))
		for _, c := range order {
			var last int64
			if err := tx.QueryRowContext(ctx, nextStatusIndexSQL, c.repoID, c.sha, counts[c]).Scan(&last); err != nil {
				return commitStatusMapping.mapErr(err)
			}
			next[c] = last - counts[c] + 1
		}
		rows := make([]commitStatusRow, len(list))
		for i, st := range list {
			c := commit{st.RepoID, st.SHA}
			rows[i] = commitStatusRow{
				RepoID: st.RepoID, SHA: st.SHA, Idx: next[c], State: string(st.State), TargetURL: st.TargetURL,
				Description: st.Description, Context: st.Context, CreatorID: st.CreatorID,
				Created: dbTime(st.Created), Updated: dbTime(st.Updated),
			}
			next[c]++
		}
		ids, err := insertRows(ctx, tx, rows)
		if err != nil {
			return commitStatusMapping.mapErr(err)
		}
		for i, st := range list {
			st.ID, st.Index = ids[i], rows[i].Idx
			st.Created, st.Updated = domainTime(rows[i].Created), domainTime(rows[i].Updated)
		}
		return nil
	})
}

// statusOrders are the listing orders; each ends on the index, which is
// unique per commit, so pages never overlap when timestamps tie.
var statusOrders = map[commitstatus.Sort][]string{
	commitstatus.SortNewest:       {"cs.created DESC", "cs.idx DESC"},
	commitstatus.SortOldest:       {"cs.created ASC", "cs.idx ASC"},
	commitstatus.SortRecentUpdate: {"cs.updated DESC", "cs.idx DESC"},
	commitstatus.SortLeastUpdate:  {"cs.updated ASC", "cs.idx ASC"},
	commitstatus.SortLeastIndex:   {"cs.idx DESC"},
	commitstatus.SortHighestIndex: {"cs.idx ASC"},
}

// List returns one page of a commit's statuses and the total matching.
func (s *CommitStatusStore) List(ctx context.Context, repoID int64, sha string, q ports.CommitStatusQuery) ([]*commitstatus.Status, int64, error) {
	var rows []commitStatusRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("cs.repo_id = ?", repoID).Where("cs.sha = ?", sha)
	if q.State != "" {
		sel = sel.Where("cs.state = ?", string(q.State))
	}
	order, ok := statusOrders[q.Sort]
	if !ok {
		order = statusOrders[commitstatus.SortNewest]
	}
	for _, o := range order {
		sel = sel.OrderExpr(o)
	}
	total, err := page(sel, q.ListOptions).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, commitStatusMapping.mapErr(err)
	}
	return commitStatusesToDomain(rows), total, nil
}

// latestStatuses selects a commit's latest statuses: the rows whose index
// is the highest of their context, found by a grouped subquery in the same
// statement.
func latestStatuses(db bun.IDB, sel *bun.SelectQuery, repoID int64, sha string) *bun.SelectQuery {
	latest := db.NewSelect().Model((*commitStatusRow)(nil)).ModelTableExpr("commit_statuses AS x").
		ColumnExpr("MAX(x.idx)").Where("x.repo_id = ?", repoID).Where("x.sha = ?", sha).GroupExpr("x.context")
	return sel.Where("cs.repo_id = ?", repoID).Where("cs.sha = ?", sha).Where("cs.idx IN (?)", latest)
}

// Latest reads one page of a commit's latest statuses, paginated in SQL.
func (s *CommitStatusStore) Latest(ctx context.Context, repoID int64, sha string, opts ports.ListOptions) ([]*commitstatus.Status, int64, error) {
	db := s.c.r(ctx)
	var rows []commitStatusRow
	sel := latestStatuses(db, db.NewSelect().Model(&rows), repoID, sha).OrderExpr("cs.idx DESC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, commitStatusMapping.mapErr(err)
	}
	return commitStatusesToDomain(rows), total, nil
}

// LatestStates counts a commit's latest statuses by state in one query.
func (s *CommitStatusStore) LatestStates(ctx context.Context, repoID int64, sha string) (map[commitstatus.State]int64, error) {
	db := s.c.r(ctx)
	var counts []struct {
		State string `bun:"state"`
		N     int64  `bun:"n"`
	}
	sel := db.NewSelect().Model((*commitStatusRow)(nil)).ColumnExpr("cs.state AS state").ColumnExpr("COUNT(*) AS n")
	if err := latestStatuses(db, sel, repoID, sha).GroupExpr("cs.state").Scan(ctx, &counts); err != nil {
		return nil, commitStatusMapping.mapErr(err)
	}
	out := make(map[commitstatus.State]int64, len(counts))
	for _, c := range counts {
		out[commitstatus.State(c.State)] = c.N
	}
	return out, nil
}
