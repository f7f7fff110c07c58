package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000034, frozen once released: notification threads, one
// per user and subject, going with their user and their repository.
type m000034Notification struct {
	bun.BaseModel `bun:"table:notifications"`

	ID         int64     `bun:"id,pk,autoincrement"`
	UserID     int64     `bun:"user_id,notnull"`
	RepoID     int64     `bun:"repo_id,notnull"`
	Status     int       `bun:"status,notnull"`
	Subject    string    `bun:"subject,type:varchar(16),notnull"`
	SubjectKey string    `bun:"subject_key,type:varchar(128),notnull"`
	IssueID    int64     `bun:"issue_id,notnull,default:0"`
	CommitID   string    `bun:"commit_id,type:varchar(64),notnull,default:''"`
	CommentID  int64     `bun:"comment_id,notnull,default:0"`
	UpdatedBy  int64     `bun:"updated_by,notnull,default:0"`
	Created    time.Time `bun:"created,notnull"`
	Updated    time.Time `bun:"updated,notnull"`
}

func up000034(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000034Notification)(nil)).IfNotExists().
		ForeignKey(`("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).
		ForeignKey(`("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	// One thread per user and subject (the fan-out's upsert); the status
	// index answers /notifications/new and the lists; the repository
	// index the cascade.
	for _, ix := range []struct {
		name   string
		unique bool
		cols   []string
	}{
		{"notifications_subject", true, []string{"user_id", "subject_key"}},
		{"notifications_user_status", false, []string{"user_id", "status", "updated"}},
		{"notifications_repo", false, []string{"repo_id"}},
	} {
		q := tx.NewCreateIndex().Table("notifications").Index(ix.name).Column(ix.cols...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000034(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000034Notification)(nil)).IfExists().Exec(ctx)
	return err
}
