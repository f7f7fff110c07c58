package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

var _ ports.PullStore = (*PullStore)(nil)

var (
	pullMapping = mapping{op: "pull request", notFound: "pull request does not exist",
		conflict: "pull request already exists", missingRef: "issue does not exist"}
	autoMergeMapping = mapping{op: "auto merge", notFound: "no scheduled auto merge",
		conflict:   "pull request is already scheduled to auto merge when checks succeed",
		missingRef: "pull request does not exist"}
)

// pullRow is the query model of pull_requests (migration 000020).
type pullRow struct {
	bun.BaseModel `bun:"table:pull_requests,alias:pr"`

	ID                  int64      `bun:"id,pk,autoincrement"`
	IssueID             int64      `bun:"issue_id"`
	BaseRepoID          int64      `bun:"base_repo_id"`
	Idx                 int64      `bun:"idx"`
	HeadRepoID          int64      `bun:"head_repo_id"`
	HeadBranch          string     `bun:"head_branch"`
	BaseBranch          string     `bun:"base_branch"`
	HeadCommitID        string     `bun:"head_commit_id"`
	Status              string     `bun:"status"`
	MergeBase           string     `bun:"merge_base"`
	ConflictedFiles     string     `bun:"conflicted_files"`
	CommitsAhead        int        `bun:"commits_ahead"`
	CommitsBehind       int        `bun:"commits_behind"`
	Additions           int        `bun:"additions"`
	Deletions           int        `bun:"deletions"`
	ChangedFiles        int        `bun:"changed_files"`
	HasMerged           bool       `bun:"has_merged"`
	MergedAt            *time.Time `bun:"merged_at"`
	MergedByID          int64      `bun:"merged_by_id"`
	MergeCommitID       string     `bun:"merge_commit_id"`
	AllowMaintainerEdit bool       `bun:"allow_maintainer_edit"`
}

func pullRowOf(p *pull.PullRequest) *pullRow {
	return &pullRow{
		ID: p.ID, IssueID: p.IssueID, BaseRepoID: p.BaseRepoID, Idx: p.Index, HeadRepoID: p.HeadRepoID,
		HeadBranch: p.HeadBranch, BaseBranch: p.BaseBranch, HeadCommitID: p.HeadCommitID,
		Status: string(p.Status), MergeBase: p.MergeBase, ConflictedFiles: strings.Join(p.ConflictedFiles, "\n"),
		CommitsAhead: p.CommitsAhead, CommitsBehind: p.CommitsBehind, Additions: p.Additions,
		Deletions: p.Deletions, ChangedFiles: p.ChangedFiles, HasMerged: p.HasMerged,
		MergedAt: dbTimePtr(p.MergedAt), MergedByID: p.MergedByID, MergeCommitID: p.MergeCommitID,
		AllowMaintainerEdit: p.AllowMaintainerEdit,
	}
}

func (r *pullRow) toDomain() *pull.PullRequest {
	p := &pull.PullRequest{
		ID: r.ID, IssueID: r.IssueID, BaseRepoID: r.BaseRepoID, Index: r.Idx, HeadRepoID: r.HeadRepoID,
		HeadBranch: r.HeadBranch, BaseBranch: r.BaseBranch, HeadCommitID: r.HeadCommitID,
		Check: pull.Check{Status: pull.Status(r.Status), MergeBase: r.MergeBase,
			CommitsAhead: r.CommitsAhead, CommitsBehind: r.CommitsBehind, Additions: r.Additions,
			Deletions: r.Deletions, ChangedFiles: r.ChangedFiles},
		HasMerged: r.HasMerged, MergedAt: domainTimePtr(r.MergedAt), MergedByID: r.MergedByID,
		MergeCommitID: r.MergeCommitID, AllowMaintainerEdit: r.AllowMaintainerEdit,
	}
	if r.ConflictedFiles != "" {
		p.ConflictedFiles = strings.Split(r.ConflictedFiles, "\n")
	}
	return p
}

// PullStore is the SQL implementation of ports.PullStore.
type PullStore struct{ c conn }

// Create inserts p.
func (s *PullStore) Create(ctx context.Context, p *pull.PullRequest) error {
	row := pullRowOf(p)
	if row.Status == "" {
		row.Status = string(pull.StatusChecking)
	}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return pullMapping.mapErr(err)
	}
	p.ID, p.Status = row.ID, pull.Status(row.Status)
	return nil
}

func (s *PullStore) getOne(ctx context.Context, where string, args ...any) (*pull.PullRequest, error) {
	var row pullRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where(where, args...).Limit(1).Scan(ctx); err != nil {
		return nil, pullMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByID returns a pull request by its own id.
func (s *PullStore) GetByID(ctx context.Context, id int64) (*pull.PullRequest, error) {
	return s.getOne(ctx, "pr.id = ?", id)
}

// GetByIssueID returns the pull request of an issue.
func (s *PullStore) GetByIssueID(ctx context.Context, issueID int64) (*pull.PullRequest, error) {
	return s.getOne(ctx, "pr.issue_id = ?", issueID)
}

// GetByIndex returns a repository's pull request by its index.
func (s *PullStore) GetByIndex(ctx context.Context, repoID, index int64) (*pull.PullRequest, error) {
	return s.getOne(ctx, "pr.base_repo_id = ? AND pr.idx = ?", repoID, index)
}

// ByIssueIDs loads the pull requests of these issues in one query.
func (s *PullStore) ByIssueIDs(ctx context.Context, issueIDs []int64) (map[int64]*pull.PullRequest, error) {
	out := make(map[int64]*pull.PullRequest, len(issueIDs))
	if len(issueIDs) == 0 {
		return out, nil
	}
	var rows []pullRow
	var err error
	if ps := s.c.sqliteReadStmt(ctx, s.pullsOfIssuesText()); ps != nil {
		rows, err = queryRows(ctx, ps, scanPullRows, idsJSON(issueIDs))
	} else {
		err = s.c.r(ctx).NewSelect().Model(&rows).Where("pr.issue_id IN (?)", bun.In(issueIDs)).Scan(ctx)
	}
	if err != nil {
		return nil, pullMapping.mapErr(err)
	}
	for i := range rows {
		out[rows[i].IssueID] = rows[i].toDomain()
	}
	return out, nil
}

// pullsOfIssuesKey is the shape of ByIssueIDs' prepared statement.
type pullsOfIssuesKey struct{}

// pullsOfIssuesText is ByIssueIDs' SQLite statement: the ids as one JSON
// array (json_each), so that one prepared statement serves every page of a
// pull request list (prepared_reads.go); "" without an owning DB.
func (s *PullStore) pullsOfIssuesText() string {
	d := s.c.owner
	if d == nil || d.dialect != DialectSQLite {
		return ""
	}
	return d.stmts.text(pullsOfIssuesKey{}, func() string {
		return "SELECT " + strings.Join(pullListColumns, ", ") + " FROM pull_requests AS pr" +
			" WHERE pr.issue_id IN (SELECT value FROM json_each(?))"
	})
}

// pullListColumns are the columns of ByIssueIDs' prepared statement on
// SQLite, in the order scanPullRows reads them (merged_at as text, read by
// parseDBTime, as the issue listing's times are).
var pullListColumns = []string{
	"pr.id", "pr.issue_id", "pr.base_repo_id", "pr.idx", "pr.head_repo_id", "pr.head_branch", "pr.base_branch",
	"pr.head_commit_id", "pr.status", "pr.merge_base", "pr.conflicted_files", "pr.commits_ahead",
	"pr.commits_behind", "pr.additions", "pr.deletions", "pr.changed_files", "pr.has_merged",
	"CAST(pr.merged_at AS TEXT)", "pr.merged_by_id", "pr.merge_commit_id", "pr.allow_maintainer_edit",
}

// scanPullRows reads the rows of a statement selecting pullListColumns with
// database/sql's Scan straight into the fields (bun's reflection was a
// fifth of reading a page's pull requests), and closes them.
func scanPullRows(rows *sql.Rows) (_ []pullRow, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	out := make([]pullRow, 0, 16)
	var merged sql.RawBytes
	for rows.Next() {
		out = append(out, pullRow{})
		r := &out[len(out)-1]
		if err := rows.Scan(&r.ID, &r.IssueID, &r.BaseRepoID, &r.Idx, &r.HeadRepoID, &r.HeadBranch, &r.BaseBranch,
			&r.HeadCommitID, &r.Status, &r.MergeBase, &r.ConflictedFiles, &r.CommitsAhead, &r.CommitsBehind,
			&r.Additions, &r.Deletions, &r.ChangedFiles, &r.HasMerged, &merged, &r.MergedByID, &r.MergeCommitID,
			&r.AllowMaintainerEdit); err != nil {
			return nil, err
		}
		if r.MergedAt, err = parseDBTimePtr(merged); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// Update writes every mutable column of p.
func (s *PullStore) Update(ctx context.Context, p *pull.PullRequest) error {
	res, err := s.c.w(ctx).NewUpdate().Model(pullRowOf(p)).WherePK().
		ExcludeColumn("id", "issue_id", "base_repo_id", "idx").Exec(ctx)
	if err != nil {
		return pullMapping.mapErr(err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return errs.NotFound(pullMapping.notFound)
	}
	return nil
}

// SetHead records a new head and marks the check pending.
func (s *PullStore) SetHead(ctx context.Context, id int64, headCommitID string) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*pullRow)(nil)).
		Set("head_commit_id = ?", headCommitID).Set("status = ?", string(pull.StatusChecking)).
		Where("id = ?", id).Where("NOT has_merged").Exec(ctx)
	return pullMapping.mapErr(err)
}

// SetCheck records a check if the head is still the one checked.
func (s *PullStore) SetCheck(ctx context.Context, id int64, headCommitID string, c pull.Check) (bool, error) {
	res, err := s.c.w(ctx).NewUpdate().Model((*pullRow)(nil)).
		Set("status = ?", string(c.Status)).Set("merge_base = ?", c.MergeBase).
		Set("conflicted_files = ?", strings.Join(c.ConflictedFiles, "\n")).
		Set("commits_ahead = ?", c.CommitsAhead).Set("commits_behind = ?", c.CommitsBehind).
		Set("additions = ?", c.Additions).Set("deletions = ?", c.Deletions).Set("changed_files = ?", c.ChangedFiles).
		Where("id = ?", id).Where("head_commit_id = ?", headCommitID).Where("NOT has_merged").Exec(ctx)
	if err != nil {
		return false, pullMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	return n > 0, pullMapping.mapErr(err)
}

// openUnmerged joins a pull request's issue and keeps the open, unmerged ones.
func openUnmerged(sel *bun.SelectQuery) *bun.SelectQuery {
	return sel.Join("JOIN issues AS i ON i.id = pr.issue_id").Where("NOT i.is_closed").Where("NOT pr.has_merged")
}

// FindUnmerged returns the open pull request from head to base.
func (s *PullStore) FindUnmerged(ctx context.Context, baseRepoID int64, baseBranch string, headRepoID int64, headBranch string) (*pull.PullRequest, error) {
	var row pullRow
	err := openUnmerged(s.c.r(ctx).NewSelect().Model(&row)).
		Where("pr.base_repo_id = ? AND pr.base_branch = ?", baseRepoID, baseBranch).
		Where("pr.head_repo_id = ? AND pr.head_branch = ?", headRepoID, headBranch).
		OrderExpr("pr.id").Limit(1).Scan(ctx)
	if err != nil {
		return nil, pullMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// OpenOnBranch lists the open pull requests with this branch as head or base.
func (s *PullStore) OpenOnBranch(ctx context.Context, repoID int64, branch string, limit int) ([]*pull.PullRequest, error) {
	var rows []pullRow
	err := openUnmerged(s.c.r(ctx).NewSelect().Model(&rows)).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("pr.head_repo_id = ? AND pr.head_branch = ?", repoID, branch).
				WhereOr("pr.base_repo_id = ? AND pr.base_branch = ?", repoID, branch)
		}).OrderExpr("pr.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, pullMapping.mapErr(err)
	}
	out := make([]*pull.PullRequest, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// HasOpenFromHead reports whether another open pull request uses this head.
func (s *PullStore) HasOpenFromHead(ctx context.Context, headRepoID int64, headBranch string, exceptID int64) (bool, error) {
	n, err := openUnmerged(s.c.r(ctx).NewSelect().Model((*pullRow)(nil))).
		Where("pr.head_repo_id = ? AND pr.head_branch = ?", headRepoID, headBranch).
		Where("pr.id <> ?", exceptID).Count(ctx)
	return n > 0, pullMapping.mapErr(err)
}

// ByMergeCommit finds the merged pull request that produced sha.
func (s *PullStore) ByMergeCommit(ctx context.Context, repoID int64, sha string) (*pull.PullRequest, error) {
	return s.getOne(ctx, "pr.base_repo_id = ? AND pr.merge_commit_id = ? AND pr.has_merged", repoID, sha)
}

// ForgetHeadRepo zeroes the head repository of the pull requests from repoID.
func (s *PullStore) ForgetHeadRepo(ctx context.Context, repoID int64) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*pullRow)(nil)).Set("head_repo_id = 0").
		Where("head_repo_id = ?", repoID).Where("base_repo_id <> ?", repoID).Exec(ctx)
	return pullMapping.mapErr(err)
}

// autoMergeRow is the query model of pull_auto_merges (migration 000020).
type autoMergeRow struct {
	bun.BaseModel `bun:"table:pull_auto_merges,alias:am"`

	PullID       int64     `bun:"pull_id,pk"`
	DoerID       int64     `bun:"doer_id"`
	Style        string    `bun:"style"`
	Message      string    `bun:"message"`
	DeleteBranch bool      `bun:"delete_branch"`
	HeadCommitID string    `bun:"head_commit_id"`
	Created      time.Time `bun:"created"`
}

// ScheduleAutoMerge records m.
func (s *PullStore) ScheduleAutoMerge(ctx context.Context, m *pull.AutoMerge) error {
	row := &autoMergeRow{PullID: m.PullID, DoerID: m.DoerID, Style: string(m.Style), Message: m.Message,
		DeleteBranch: m.DeleteBranch, HeadCommitID: m.HeadCommitID, Created: dbTime(m.Created)}
	_, err := s.c.w(ctx).NewInsert().Model(row).Exec(ctx)
	return autoMergeMapping.mapErr(err)
}

// AutoMerge returns the merge scheduled for a pull request.
func (s *PullStore) AutoMerge(ctx context.Context, pullID int64) (*pull.AutoMerge, error) {
	var row autoMergeRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where("am.pull_id = ?", pullID).Scan(ctx); err != nil {
		return nil, autoMergeMapping.mapErr(err)
	}
	return &pull.AutoMerge{PullID: row.PullID, DoerID: row.DoerID, Style: pull.Style(row.Style), Message: row.Message,
		DeleteBranch: row.DeleteBranch, HeadCommitID: row.HeadCommitID, Created: domainTime(row.Created)}, nil
}

// ScheduledForHead lists the pull requests with a merge scheduled on sha.
func (s *PullStore) ScheduledForHead(ctx context.Context, repoID int64, sha string) ([]int64, error) {
	var ids []int64
	err := s.c.r(ctx).NewSelect().Model((*autoMergeRow)(nil)).Column("am.pull_id").
		Join("JOIN pull_requests AS pr ON pr.id = am.pull_id").
		Where("pr.base_repo_id = ? AND am.head_commit_id = ?", repoID, sha).Scan(ctx, &ids)
	return ids, autoMergeMapping.mapErr(err)
}

// DeleteAutoMerge removes the merge scheduled for a pull request.
func (s *PullStore) DeleteAutoMerge(ctx context.Context, pullID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*autoMergeRow)(nil)).Where("pull_id = ?", pullID).Exec(ctx)
	if err != nil {
		return autoMergeMapping.mapErr(err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return errs.NotFound(autoMergeMapping.notFound)
	}
	return nil
}
