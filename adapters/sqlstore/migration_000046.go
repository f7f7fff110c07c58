package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000046, frozen once released: the tokens of running tasks
// and the artifacts workflow runs upload.
//
// A task's token (GITEA_TOKEN) is kept as the SHA-256 of its secret, one row
// per task, dying with the task; it authenticates only while the task runs.
// An artifact belongs to a run (and the job and task that uploaded it), is
// unique by name in its run, and dies with its repository; its bytes are in
// the artifact blob store under its id.
type m000046TaskToken struct {
	bun.BaseModel `bun:"table:action_task_tokens"`

	TaskID    int64  `bun:"task_id,pk"`
	TokenHash string `bun:"token_hash,type:varchar(64),notnull,unique"`
}

type m000046Artifact struct {
	bun.BaseModel `bun:"table:action_artifacts"`

	ID      int64     `bun:"id,pk,autoincrement"`
	RepoID  int64     `bun:"repo_id,notnull"`
	RunID   int64     `bun:"run_id,notnull"`
	JobID   int64     `bun:"job_id,notnull"`
	TaskID  int64     `bun:"task_id,notnull"`
	Name    string    `bun:"name,type:varchar(255),notnull"`
	Size    int64     `bun:"size,notnull,default:0"`
	SHA256  string    `bun:"sha256,type:varchar(64),notnull,default:''"`
	Status  string    `bun:"status,type:varchar(16),notnull"`
	Created time.Time `bun:"created,notnull"`
	Updated time.Time `bun:"updated,notnull"`
	Expires time.Time `bun:"expires,notnull"`
}

const (
	taskTokenToTask = `("task_id") REFERENCES "action_tasks" ("id") ON DELETE CASCADE`
	artifactToRun   = `("run_id") REFERENCES "action_runs" ("id") ON DELETE CASCADE`
)

func up000046(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000046TaskToken)(nil)).IfNotExists().
		ForeignKey(taskTokenToTask).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000046Artifact)(nil)).IfNotExists().
		ForeignKey(artifactToRun).ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
		return err
	}
	// A run's artifacts are unique by name; a repository's list newest
	// first; the cleanup finds the expired ones by their expiry.
	for _, ix := range []struct {
		name    string
		unique  bool
		columns []string
	}{
		{"action_artifacts_run_name", true, []string{"run_id", "name"}},
		{"action_artifacts_repo", false, []string{"repo_id", "id"}},
		{"action_artifacts_expires", false, []string{"expires"}},
	} {
		q := tx.NewCreateIndex().Table("action_artifacts").Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000046(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000046Artifact)(nil), (*m000046TaskToken)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
