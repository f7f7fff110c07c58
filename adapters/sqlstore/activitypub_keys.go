package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.ActorKeyStore = (*ActorKeyStore)(nil)

var actorKeyMapping = mapping{op: "actor key", notFound: "actor key does not exist", missingRef: "user does not exist"}

type actorKeyRow struct {
	bun.BaseModel `bun:"table:activitypub_actor_keys,alias:ak"`

	UserID        int64     `bun:"user_id,pk"`
	PublicPEM     string    `bun:"public_pem"`
	PrivateSealed string    `bun:"private_sealed"`
	Created       time.Time `bun:"created"`
}

func (r *actorKeyRow) toPort() *ports.ActorKey {
	return &ports.ActorKey{UserID: r.UserID, PublicPEM: r.PublicPEM, PrivateSealed: r.PrivateSealed, Created: r.Created.UTC()}
}

// ActorKeyStore is the SQL implementation of ports.ActorKeyStore over
// activitypub_actor_keys (migration 000047).
type ActorKeyStore struct{ c conn }

// Get returns the account's pair.
func (s *ActorKeyStore) Get(ctx context.Context, userID int64) (*ports.ActorKey, error) {
	var row actorKeyRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where("ak.user_id = ?", userID).Scan(ctx); err != nil {
		return nil, actorKeyMapping.mapErr(err)
	}
	return row.toPort(), nil
}

// Add inserts k unless a pair exists, then reads the pair that stands.
func (s *ActorKeyStore) Add(ctx context.Context, k *ports.ActorKey) (*ports.ActorKey, error) {
	row := &actorKeyRow{UserID: k.UserID, PublicPEM: k.PublicPEM, PrivateSealed: k.PrivateSealed, Created: k.Created.UTC()}
	if _, err := s.c.w(ctx).NewInsert().Model(row).On("CONFLICT (user_id) DO NOTHING").Exec(ctx); err != nil {
		return nil, actorKeyMapping.mapErr(err)
	}
	var got actorKeyRow
	if err := s.c.w(ctx).NewSelect().Model(&got).Where("ak.user_id = ?", k.UserID).Scan(ctx); err != nil {
		return nil, actorKeyMapping.mapErr(err)
	}
	return got.toPort(), nil
}
