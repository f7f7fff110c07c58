package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000007, frozen once released: mirrors.
//
// A pull mirror is one row per repository (its key is the repository's);
// push mirrors are many per repository, named uniquely within it. Both keep
// their remote's address without credentials and the credentials sealed
// (AES-GCM under the site key), since git needs them back in clear.
// Intervals (sync_interval: "interval" is a reserved word) are nanoseconds,
// as Go's durations. Scheduling itself lives in the job table; next_update is
// the schedule's truth that the queued jobs are checked against.

type m000007Mirror struct {
	bun.BaseModel `bun:"table:mirrors"`

	RepoID      int64     `bun:"repo_id,pk"`
	RemoteURL   string    `bun:"remote_url,notnull"`
	Credentials string    `bun:"credentials,notnull,default:''"`
	Interval    int64     `bun:"sync_interval,notnull,default:0"`
	NextUpdate  time.Time `bun:"next_update,nullzero"`
	Updated     time.Time `bun:"updated,nullzero"`
	LastError   string    `bun:"last_error,notnull,default:''"`
}

type m000007PushMirror struct {
	bun.BaseModel `bun:"table:push_mirrors"`

	ID            int64     `bun:"id,pk,autoincrement"`
	RepoID        int64     `bun:"repo_id,notnull,unique:push_mirrors_repo_name"`
	RemoteName    string    `bun:"remote_name,notnull,unique:push_mirrors_repo_name"`
	RemoteAddress string    `bun:"remote_address,notnull"`
	Credentials   string    `bun:"credentials,notnull,default:''"`
	Interval      int64     `bun:"sync_interval,notnull,default:0"`
	SyncOnCommit  bool      `bun:"sync_on_commit,notnull,default:false"`
	NextUpdate    time.Time `bun:"next_update,nullzero"`
	LastUpdate    time.Time `bun:"last_update,nullzero"`
	LastError     string    `bun:"last_error,notnull,default:''"`
	Created       time.Time `bun:"created,nullzero"`
}

func up000007(ctx context.Context, tx bun.Tx) error {
	// The (repo_id, remote_name) constraint leads with repo_id, so it also
	// serves a repository's listing and the cascade from repos.
	for _, model := range []any{(*m000007Mirror)(nil), (*m000007PushMirror)(nil)} {
		if _, err := tx.NewCreateTable().Model(model).IfNotExists().ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000007(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000007PushMirror)(nil), (*m000007Mirror)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
