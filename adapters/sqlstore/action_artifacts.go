package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionArtifactMapping = mapping{
	op: "action artifact", notFound: "artifact not found", conflict: "artifact already exists",
	missingRef: "run does not exist",
}

var _ ports.ActionArtifactStore = (*ActionArtifactStore)(nil)

// ActionArtifactStore is the SQL implementation of
// ports.ActionArtifactStore over action_artifacts (migration 000046).
type ActionArtifactStore struct{ c conn }

type actionArtifactRow struct {
	bun.BaseModel `bun:"table:action_artifacts,alias:aa"`

	ID      int64     `bun:"id,pk,autoincrement"`
	RepoID  int64     `bun:"repo_id"`
	RunID   int64     `bun:"run_id"`
	JobID   int64     `bun:"job_id"`
	TaskID  int64     `bun:"task_id"`
	Name    string    `bun:"name"`
	Size    int64     `bun:"size"`
	SHA256  string    `bun:"sha256"`
	Status  string    `bun:"status"`
	Created time.Time `bun:"created"`
	Updated time.Time `bun:"updated"`
	Expires time.Time `bun:"expires"`
	// RunCommitSHA is the commit the artifact's run ran at, read by a join.
	RunCommitSHA string `bun:"run_commit_sha,scanonly"`
}

// selectArtifacts reads artifacts with their run's commit.
func selectArtifacts(db bun.IDB, model any) *bun.SelectQuery {
	return db.NewSelect().Model(model).ColumnExpr("aa.*").ColumnExpr("ar.commit_sha AS run_commit_sha").
		Join("LEFT JOIN action_runs AS ar ON ar.id = aa.run_id")
}

func (r *actionArtifactRow) toDomain() *actions.Artifact {
	return &actions.Artifact{ID: r.ID, RepoID: r.RepoID, RunID: r.RunID, JobID: r.JobID, TaskID: r.TaskID,
		Name: r.Name, Size: r.Size, SHA256: r.SHA256, Status: r.Status, Created: domainTime(r.Created),
		Updated: domainTime(r.Updated), Expires: domainTime(r.Expires), RunCommitSHA: r.RunCommitSHA}
}

// Upsert creates the run's artifact of a's name or resets the one there is.
func (s *ActionArtifactStore) Upsert(ctx context.Context, a *actions.Artifact) error {
	db := s.c.w(ctx)
	row := &actionArtifactRow{RepoID: a.RepoID, RunID: a.RunID, JobID: a.JobID, TaskID: a.TaskID, Name: a.Name,
		Status: a.Status, Created: dbTime(a.Created), Updated: dbTime(a.Updated), Expires: dbTime(a.Expires)}
	if _, err := db.NewInsert().Model(row).On("CONFLICT (run_id, name) DO UPDATE").
		Set("job_id = EXCLUDED.job_id").Set("task_id = EXCLUDED.task_id").Set("status = EXCLUDED.status").
		Set("size = 0").Set("sha256 = ''").Set("updated = EXCLUDED.updated").Set("expires = EXCLUDED.expires").
		Exec(ctx); err != nil {
		return actionArtifactMapping.mapErr(err)
	}
	got := new(actionArtifactRow)
	if err := db.NewSelect().Model(got).Where("run_id = ?", a.RunID).Where("name = ?", a.Name).Scan(ctx); err != nil {
		return actionArtifactMapping.mapErr(err)
	}
	a.ID, a.Created = got.ID, domainTime(got.Created)
	return nil
}

// Get finds an artifact by id.
func (s *ActionArtifactStore) Get(ctx context.Context, id int64) (*actions.Artifact, error) {
	row := new(actionArtifactRow)
	if err := selectArtifacts(s.c.r(ctx), row).Where("aa.id = ?", id).Scan(ctx); err != nil {
		return nil, actionArtifactMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// ByName finds the run's artifact of that name.
func (s *ActionArtifactStore) ByName(ctx context.Context, runID int64, name string) (*actions.Artifact, error) {
	row := new(actionArtifactRow)
	if err := selectArtifacts(s.c.r(ctx), row).Where("aa.run_id = ?", runID).Where("aa.name = ?", name).Scan(ctx); err != nil {
		return nil, actionArtifactMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Confirm marks a pending artifact confirmed with its size and digest.
func (s *ActionArtifactStore) Confirm(ctx context.Context, id, size int64, sha256 string, now time.Time) error {
	return actionArtifactMapping.affected(s.c.w(ctx).NewUpdate().Model((*actionArtifactRow)(nil)).
		Set("status = ?", actions.ArtifactConfirmed).Set("size = ?", size).Set("sha256 = ?", sha256).
		Set("updated = ?", dbTime(now)).Where("id = ?", id).Exec(ctx))
}

// List returns one page of the repository's confirmed artifacts.
func (s *ActionArtifactStore) List(ctx context.Context, repoID, runID int64, name string, opts ports.ListOptions) ([]*actions.Artifact, int64, error) {
	var rows []actionArtifactRow
	q := selectArtifacts(s.c.r(ctx), &rows).Where("aa.repo_id = ?", repoID).Where("aa.status = ?", actions.ArtifactConfirmed)
	if runID != 0 {
		q = q.Where("aa.run_id = ?", runID)
	}
	if name != "" {
		q = q.Where("aa.name = ?", name)
	}
	total, err := page(q.OrderExpr("aa.id DESC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, actionArtifactMapping.mapErr(err)
	}
	return domainAll(rows, (*actionArtifactRow).toDomain), total, nil
}

// ListRun returns the run's confirmed artifacts in id order.
func (s *ActionArtifactStore) ListRun(ctx context.Context, runID int64) ([]*actions.Artifact, error) {
	var rows []actionArtifactRow
	if err := selectArtifacts(s.c.r(ctx), &rows).Where("aa.run_id = ?", runID).
		Where("aa.status = ?", actions.ArtifactConfirmed).OrderExpr("aa.id ASC").Scan(ctx); err != nil {
		return nil, actionArtifactMapping.mapErr(err)
	}
	return domainAll(rows, (*actionArtifactRow).toDomain), nil
}

// Delete removes an artifact's row.
func (s *ActionArtifactStore) Delete(ctx context.Context, id int64) error {
	return actionArtifactMapping.affected(s.c.w(ctx).NewDelete().Model((*actionArtifactRow)(nil)).Where("id = ?", id).Exec(ctx))
}

// Expired returns at most n artifacts expired at now, oldest expiry first.
func (s *ActionArtifactStore) Expired(ctx context.Context, now time.Time, n int) ([]*actions.Artifact, error) {
	var rows []actionArtifactRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("expires <= ?", dbTime(now)).
		OrderExpr("expires ASC, id ASC").Limit(int64(n)).Scan(ctx); err != nil {
		return nil, actionArtifactMapping.mapErr(err)
	}
	return domainAll(rows, (*actionArtifactRow).toDomain), nil
}
