package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000044, frozen once released: Actions runners and what
// they report of the tasks they run.
//
// A runner belongs to an account (owner_id), a repository (repo_id) or,
// with neither, the site; it dies with its account or repository. It
// authenticates with its uuid and a token matched by its hash. A task's
// steps, outputs and log rows hang on the task and die with it; the single
// row of action_tasks_version counts the times jobs became waiting, so that
// runners asking with the count they saw last skip the search for work.
type m000044Runner struct {
	bun.BaseModel `bun:"table:action_runners"`

	ID         int64      `bun:"id,pk,autoincrement"`
	UUID       string     `bun:"uuid,type:varchar(36),notnull,unique"`
	Name       string     `bun:"name,type:varchar(255),notnull"`
	OwnerID    int64      `bun:"owner_id,nullzero"`
	RepoID     int64      `bun:"repo_id,nullzero"`
	TokenHash  string     `bun:"token_hash,type:varchar(64),notnull"`
	Labels     string     `bun:"labels,type:text,notnull,default:''"`
	Version    string     `bun:"version,type:varchar(64),notnull,default:''"`
	Ephemeral  bool       `bun:"ephemeral,notnull,default:false"`
	LastOnline *time.Time `bun:"last_online"`
	LastActive *time.Time `bun:"last_active"`
	Created    time.Time  `bun:"created,notnull"`
}

type m000044TaskStep struct {
	bun.BaseModel `bun:"table:action_task_steps"`

	TaskID    int64      `bun:"task_id,pk"`
	Idx       int64      `bun:"idx,pk"`
	Status    string     `bun:"status,type:varchar(32),notnull"`
	LogIndex  int64      `bun:"log_index,notnull,default:0"`
	LogLength int64      `bun:"log_length,notnull,default:0"`
	Started   *time.Time `bun:"started"`
	Stopped   *time.Time `bun:"stopped"`
}

type m000044TaskOutput struct {
	bun.BaseModel `bun:"table:action_task_outputs"`

	TaskID int64  `bun:"task_id,pk"`
	Key    string `bun:"output_key,pk,type:varchar(255)"`
	Value  string `bun:"output_value,type:text,notnull"`
}

type m000044TaskLog struct {
	bun.BaseModel `bun:"table:action_task_logs"`

	TaskID  int64     `bun:"task_id,pk"`
	Idx     int64     `bun:"idx,pk"`
	Logged  time.Time `bun:"logged,notnull"`
	Content string    `bun:"content,type:text,notnull"`
}

type m000044TasksVersion struct {
	bun.BaseModel `bun:"table:action_tasks_version"`

	ID      int64 `bun:"id,pk"`
	Version int64 `bun:"version,notnull"`
}

const (
	actionRunnerToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	actionTaskChild     = `("task_id") REFERENCES "action_tasks" ("id") ON DELETE CASCADE`
)

func up000044(ctx context.Context, tx bun.Tx) error {
	for _, t := range []struct {
		model any
		fks   []string
	}{
		{(*m000044Runner)(nil), []string{actionRunnerToOwner, cascadeToRepos}},
		{(*m000044TaskStep)(nil), []string{actionTaskChild}},
		{(*m000044TaskOutput)(nil), []string{actionTaskChild}},
		{(*m000044TaskLog)(nil), []string{actionTaskChild}},
		{(*m000044TasksVersion)(nil), nil},
	} {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		for _, fk := range t.fks {
			q = q.ForeignKey(fk)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	// A scope's runners are listed, and the cascades walk, through these;
	// a task's runner is looked up by the tasks' runner_id.
	for _, ix := range []struct{ table, name, column string }{
		{"action_runners", "action_runners_owner", "owner_id"},
		{"action_runners", "action_runners_repo", "repo_id"},
		{"action_tasks", "action_tasks_runner", "runner_id"},
	} {
		if _, err := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.column).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	_, err := tx.NewInsert().Model(&m000044TasksVersion{ID: 1, Version: 1}).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

func down000044(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropIndex().Index("action_tasks_runner").IfExists().Exec(ctx)
	if err != nil {
		return err
	}
	for _, m := range []any{(*m000044TasksVersion)(nil), (*m000044TaskLog)(nil), (*m000044TaskOutput)(nil),
		(*m000044TaskStep)(nil), (*m000044Runner)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
