package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.WebSessionStore = (*WebSessionStore)(nil)

// WebSessionStore is the SQL implementation of ports.WebSessionStore over
// web_sessions (migration 000050).
type WebSessionStore struct{ c conn }

var webSessionMapping = mapping{op: "web session", notFound: "session does not exist",
	conflict: "session exists already", missingRef: "user does not exist"}

type webSessionRow struct {
	bun.BaseModel `bun:"table:web_sessions,alias:ws"`

	ID            int64     `bun:"id,pk,autoincrement"`
	TokenHash     string    `bun:"token_hash"`
	UserID        int64     `bun:"user_id,nullzero"`
	PendingUserID int64     `bun:"pending_user_id,nullzero"`
	Created       time.Time `bun:"created"`
	Expires       time.Time `bun:"expires"`
}

func (r *webSessionRow) toDomain() *user.WebSession {
	return &user.WebSession{ID: r.ID, TokenHash: r.TokenHash, UserID: r.UserID, PendingUserID: r.PendingUserID,
		Created: domainTime(r.Created), Expires: domainTime(r.Expires)}
}

// Create inserts a session and sets its id.
func (s *WebSessionStore) Create(ctx context.Context, ws *user.WebSession) error {
	row := &webSessionRow{TokenHash: ws.TokenHash, UserID: ws.UserID, PendingUserID: ws.PendingUserID,
		Created: dbTime(ws.Created), Expires: dbTime(ws.Expires)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return webSessionMapping.mapErr(err)
	}
	ws.ID = row.ID
	return nil
}

// GetByHash finds a session by its token's hash.
func (s *WebSessionStore) GetByHash(ctx context.Context, tokenHash string) (*user.WebSession, error) {
	row := new(webSessionRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("ws.token_hash = ?", tokenHash).Scan(ctx); err != nil {
		return nil, webSessionMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Delete removes a session.
func (s *WebSessionStore) Delete(ctx context.Context, id int64) error {
	_, err := s.c.w(ctx).NewDelete().Model((*webSessionRow)(nil)).Where("id = ?", id).Exec(ctx)
	return webSessionMapping.mapErr(err)
}

// DeleteExpired removes the sessions expired at now.
func (s *WebSessionStore) DeleteExpired(ctx context.Context, now time.Time) error {
	_, err := s.c.w(ctx).NewDelete().Model((*webSessionRow)(nil)).Where("expires <= ?", dbTime(now)).Exec(ctx)
	return webSessionMapping.mapErr(err)
}
