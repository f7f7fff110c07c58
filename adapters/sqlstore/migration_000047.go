package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000047, frozen once released: ActivityPub. Each account's
// actor key pair (made on first need; the private half sealed with the site
// key), and what remote actors told an account's inbox: who follows it and
// what they liked. All of it goes with the account.

// m000047ActorKey is an account's actor key pair.
type m000047ActorKey struct {
	bun.BaseModel `bun:"table:activitypub_actor_keys"`

	UserID        int64     `bun:"user_id,pk"`
	PublicPEM     string    `bun:"public_pem,type:text,notnull"`
	PrivateSealed string    `bun:"private_sealed,type:text,notnull"`
	Created       time.Time `bun:"created,notnull"`
}

// m000047RemoteFollower is a remote actor following an account.
type m000047RemoteFollower struct {
	bun.BaseModel `bun:"table:activitypub_remote_followers"`

	UserID   int64     `bun:"user_id,pk"`
	ActorIRI string    `bun:"actor_iri,pk,type:varchar(2048)"`
	Created  time.Time `bun:"created,notnull"`
}

// m000047RemoteLike is a remote actor's Like of an object of an account's.
type m000047RemoteLike struct {
	bun.BaseModel `bun:"table:activitypub_remote_likes"`

	UserID    int64     `bun:"user_id,pk"`
	ActorIRI  string    `bun:"actor_iri,pk,type:varchar(2048)"`
	ObjectIRI string    `bun:"object_iri,pk,type:varchar(2048)"`
	Created   time.Time `bun:"created,notnull"`
}

func up000047(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000047ActorKey)(nil), (*m000047RemoteFollower)(nil), (*m000047RemoteLike)(nil)} {
		if _, err := tx.NewCreateTable().Model(m).IfNotExists().ForeignKey(cascadeToUsers).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000047(ctx context.Context, tx bun.Tx) error {
	for _, t := range []string{"activitypub_remote_likes", "activitypub_remote_followers", "activitypub_actor_keys"} {
		if _, err := tx.NewDropTable().Table(t).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
