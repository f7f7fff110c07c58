package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.ActivityPubInboxStore = (*ActivityPubInboxStore)(nil)

var inboxMapping = mapping{op: "activitypub inbox", missingRef: "user does not exist"}

type remoteFollowerRow struct {
	bun.BaseModel `bun:"table:activitypub_remote_followers,alias:rf"`

	UserID   int64     `bun:"user_id,pk"`
	ActorIRI string    `bun:"actor_iri,pk"`
	Created  time.Time `bun:"created"`
}

type remoteLikeRow struct {
	bun.BaseModel `bun:"table:activitypub_remote_likes,alias:rl"`

	UserID    int64     `bun:"user_id,pk"`
	ActorIRI  string    `bun:"actor_iri,pk"`
	ObjectIRI string    `bun:"object_iri,pk"`
	Created   time.Time `bun:"created"`
}

// ActivityPubInboxStore is the SQL implementation of
// ports.ActivityPubInboxStore over activitypub_remote_followers and
// activitypub_remote_likes (migration 000047).
type ActivityPubInboxStore struct{ c conn }

// AddFollower inserts the pair unless it exists.
func (s *ActivityPubInboxStore) AddFollower(ctx context.Context, f ports.RemoteFollower) error {
	row := &remoteFollowerRow{UserID: f.UserID, ActorIRI: f.ActorIRI, Created: f.Created.UTC()}
	_, err := s.c.w(ctx).NewInsert().Model(row).On("CONFLICT (user_id, actor_iri) DO NOTHING").Exec(ctx)
	return inboxMapping.mapErr(err)
}

// RemoveFollower deletes the pair if it exists.
func (s *ActivityPubInboxStore) RemoveFollower(ctx context.Context, userID int64, actorIRI string) error {
	_, err := s.c.w(ctx).NewDelete().Model((*remoteFollowerRow)(nil)).
		Where("user_id = ?", userID).Where("actor_iri = ?", actorIRI).Exec(ctx)
	return inboxMapping.mapErr(err)
}

// Followers pages the account's remote followers, oldest first.
func (s *ActivityPubInboxStore) Followers(ctx context.Context, userID int64, opts ports.ListOptions) ([]ports.RemoteFollower, int64, error) {
	var rows []remoteFollowerRow
	q := s.c.r(ctx).NewSelect().Model(&rows).Where("rf.user_id = ?", userID).OrderExpr("rf.created ASC, rf.actor_iri ASC")
	n, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, inboxMapping.mapErr(err)
	}
	out := make([]ports.RemoteFollower, 0, len(rows))
	for _, r := range rows {
		out = append(out, ports.RemoteFollower{UserID: r.UserID, ActorIRI: r.ActorIRI, Created: r.Created.UTC()})
	}
	return out, int64(n), nil
}

// AddLike inserts the like unless it exists.
func (s *ActivityPubInboxStore) AddLike(ctx context.Context, l ports.RemoteLike) error {
	row := &remoteLikeRow{UserID: l.UserID, ActorIRI: l.ActorIRI, ObjectIRI: l.ObjectIRI, Created: l.Created.UTC()}
	_, err := s.c.w(ctx).NewInsert().Model(row).On("CONFLICT (user_id, actor_iri, object_iri) DO NOTHING").Exec(ctx)
	return inboxMapping.mapErr(err)
}

// RemoveLike deletes the like if it exists.
func (s *ActivityPubInboxStore) RemoveLike(ctx context.Context, userID int64, actorIRI, objectIRI string) error {
	_, err := s.c.w(ctx).NewDelete().Model((*remoteLikeRow)(nil)).
		Where("user_id = ?", userID).Where("actor_iri = ?", actorIRI).Where("object_iri = ?", objectIRI).Exec(ctx)
	return inboxMapping.mapErr(err)
}

// Likes pages the account's remote likes, oldest first.
func (s *ActivityPubInboxStore) Likes(ctx context.Context, userID int64, opts ports.ListOptions) ([]ports.RemoteLike, int64, error) {
	var rows []remoteLikeRow
	q := s.c.r(ctx).NewSelect().Model(&rows).Where("rl.user_id = ?", userID).
		OrderExpr("rl.created ASC, rl.actor_iri ASC, rl.object_iri ASC")
	n, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, inboxMapping.mapErr(err)
	}
	out := make([]ports.RemoteLike, 0, len(rows))
	for _, r := range rows {
		out = append(out, ports.RemoteLike{UserID: r.UserID, ActorIRI: r.ActorIRI, ObjectIRI: r.ObjectIRI, Created: r.Created.UTC()})
	}
	return out, int64(n), nil
}
