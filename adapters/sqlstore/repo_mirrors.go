package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.MirrorStore = (*MirrorStore)(nil)

// mirrorRow is the query model of mirrors (migration 000007).
type mirrorRow struct {
	bun.BaseModel `bun:"table:mirrors,alias:m"`

	RepoID      int64     `bun:"repo_id,pk"`
	RemoteURL   string    `bun:"remote_url"`
	Credentials string    `bun:"credentials"`
	Interval    int64     `bun:"sync_interval"`
	NextUpdate  time.Time `bun:"next_update,nullzero"`
	Updated     time.Time `bun:"updated,nullzero"`
	LastError   string    `bun:"last_error"`
}

func (r *mirrorRow) toDomain() *ports.Mirror {
	return &ports.Mirror{
		RepoID: r.RepoID, RemoteURL: r.RemoteURL, Credentials: r.Credentials, Interval: time.Duration(r.Interval),
		NextUpdate: domainTime(r.NextUpdate), Updated: domainTime(r.Updated), LastError: r.LastError,
	}
}

var mirrorMapping = mapping{
	op:         "mirrors",
	notFound:   "mirror does not exist",
	conflict:   "repository is already a mirror",
	missingRef: "repository does not exist",
}

// MirrorStore is the SQL implementation of ports.MirrorStore.
type MirrorStore struct{ c conn }

// Create inserts m.
func (s *MirrorStore) Create(ctx context.Context, m *ports.Mirror) error {
	row := &mirrorRow{
		RepoID: m.RepoID, RemoteURL: m.RemoteURL, Credentials: m.Credentials, Interval: int64(m.Interval),
		NextUpdate: dbTime(m.NextUpdate), Updated: dbTime(m.Updated), LastError: m.LastError,
	}
	_, err := s.c.w(ctx).NewInsert().Model(row).Exec(ctx)
	return mirrorMapping.mapErr(err)
}

// Get returns a repository's mirror.
func (s *MirrorStore) Get(ctx context.Context, repoID int64) (*ports.Mirror, error) {
	row := new(mirrorRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("m.repo_id = ?", repoID).Scan(ctx); err != nil {
		return nil, mirrorMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Schedule sets the interval and the next update.
func (s *MirrorStore) Schedule(ctx context.Context, repoID int64, interval time.Duration, next time.Time) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*mirrorRow)(nil)).
		Set("sync_interval = ?", int64(interval)).Set("next_update = ?", nullTime(next)).
		Where("repo_id = ?", repoID).Exec(ctx)
	return mirrorMapping.affected(res, err)
}

// RecordSync stores a sync's outcome.
func (s *MirrorStore) RecordSync(ctx context.Context, repoID int64, updated time.Time, lastError string) error {
	q := s.c.w(ctx).NewUpdate().Model((*mirrorRow)(nil)).Set("last_error = ?", lastError).Where("repo_id = ?", repoID)
	if !updated.IsZero() {
		q = q.Set("updated = ?", dbTime(updated))
	}
	res, err := q.Exec(ctx)
	return mirrorMapping.affected(res, err)
}

// UpdatedTimes reads the last successful sync of each listed mirror.
func (s *MirrorStore) UpdatedTimes(ctx context.Context, repoIDs []int64) (map[int64]time.Time, error) {
	out := make(map[int64]time.Time, len(repoIDs))
	if len(repoIDs) == 0 {
		return out, nil
	}
	var rows []mirrorRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Column("m.repo_id", "m.updated").
		Where("m.repo_id IN (?)", bun.In(repoIDs)).Where("m.updated IS NOT NULL").Scan(ctx)
	if err != nil {
		return nil, mirrorMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.RepoID] = domainTime(r.Updated)
	}
	return out, nil
}

// Due reads the overdue mirrors, the longest overdue first.
func (s *MirrorStore) Due(ctx context.Context, now time.Time, limit int) ([]*ports.Mirror, error) {
	var rows []mirrorRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Where("m.next_update IS NOT NULL").
		Where("m.next_update <= ?", dbTime(now)).OrderExpr("m.next_update ASC, m.repo_id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, mirrorMapping.mapErr(err)
	}
	out := make([]*ports.Mirror, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out, nil
}

// nullTime is a time for a Set clause: NULL for the zero time, as nullzero
// columns keep it.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return dbTime(t)
}

var _ ports.PushMirrorStore = (*PushMirrorStore)(nil)

// pushMirrorRow is the query model of push_mirrors (migration 000007).
type pushMirrorRow struct {
	bun.BaseModel `bun:"table:push_mirrors,alias:pm"`

	ID            int64     `bun:"id,pk,autoincrement"`
	RepoID        int64     `bun:"repo_id"`
	RemoteName    string    `bun:"remote_name"`
	RemoteAddress string    `bun:"remote_address"`
	Credentials   string    `bun:"credentials"`
	Interval      int64     `bun:"sync_interval"`
	SyncOnCommit  bool      `bun:"sync_on_commit"`
	NextUpdate    time.Time `bun:"next_update,nullzero"`
	LastUpdate    time.Time `bun:"last_update,nullzero"`
	LastError     string    `bun:"last_error"`
	Created       time.Time `bun:"created,nullzero"`
}

func (r *pushMirrorRow) toDomain() *ports.PushMirror {
	return &ports.PushMirror{
		ID: r.ID, RepoID: r.RepoID, RemoteName: r.RemoteName, RemoteAddress: r.RemoteAddress,
		Credentials: r.Credentials, Interval: time.Duration(r.Interval), SyncOnCommit: r.SyncOnCommit,
		NextUpdate: domainTime(r.NextUpdate), LastUpdate: domainTime(r.LastUpdate), LastError: r.LastError,
		Created: domainTime(r.Created),
	}
}

func pushMirrorsToDomain(rows []pushMirrorRow) []*ports.PushMirror {
	return domainAll(rows, (*pushMirrorRow).toDomain)
}

var pushMirrorMapping = mapping{
	op:         "push mirrors",
	notFound:   "push mirror does not exist",
	conflict:   "a push mirror with this remote name already exists",
	missingRef: "repository does not exist",
}

// PushMirrorStore is the SQL implementation of ports.PushMirrorStore.
type PushMirrorStore struct{ c conn }

// Create inserts m and sets m.ID.
func (s *PushMirrorStore) Create(ctx context.Context, m *ports.PushMirror) error {
	row := &pushMirrorRow{
		RepoID: m.RepoID, RemoteName: m.RemoteName, RemoteAddress: m.RemoteAddress, Credentials: m.Credentials,
		Interval: int64(m.Interval), SyncOnCommit: m.SyncOnCommit, NextUpdate: dbTime(m.NextUpdate),
		LastUpdate: dbTime(m.LastUpdate), LastError: m.LastError, Created: dbTime(m.Created),
	}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return pushMirrorMapping.mapErr(err)
	}
	m.ID = row.ID
	return nil
}

// Get finds a repository's push mirror by remote name.
func (s *PushMirrorStore) Get(ctx context.Context, repoID int64, remoteName string) (*ports.PushMirror, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("pm.repo_id = ?", repoID).Where("pm.remote_name = ?", remoteName)
	})
}

// GetByID finds a push mirror by primary key.
func (s *PushMirrorStore) GetByID(ctx context.Context, id int64) (*ports.PushMirror, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("pm.id = ?", id) })
}

func (s *PushMirrorStore) getOne(ctx context.Context, where func(*bun.SelectQuery) *bun.SelectQuery) (*ports.PushMirror, error) {
	row := new(pushMirrorRow)
	if err := where(s.c.r(ctx).NewSelect().Model(row)).Scan(ctx); err != nil {
		return nil, pushMirrorMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of a repository's push mirrors ordered by id, and the total.
func (s *PushMirrorStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*ports.PushMirror, int64, error) {
	var rows []pushMirrorRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("pm.repo_id = ?", repoID).OrderExpr("pm.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, pushMirrorMapping.mapErr(err)
	}
	return pushMirrorsToDomain(rows), int64(total), nil
}

// ListForSync returns a repository's push mirrors (those that sync on
// commit only, when asked) ordered by id, in one query.
func (s *PushMirrorStore) ListForSync(ctx context.Context, repoID int64, onCommitOnly bool) ([]*ports.PushMirror, error) {
	var rows []pushMirrorRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("pm.repo_id = ?", repoID).OrderExpr("pm.id ASC")
	if onCommitOnly {
		sel = sel.Where("pm.sync_on_commit = ?", true)
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, pushMirrorMapping.mapErr(err)
	}
	return pushMirrorsToDomain(rows), nil
}

// Delete removes a repository's push mirror by remote name.
func (s *PushMirrorStore) Delete(ctx context.Context, repoID int64, remoteName string) error {
	res, err := s.c.w(ctx).NewDelete().Model((*pushMirrorRow)(nil)).
		Where("repo_id = ?", repoID).Where("remote_name = ?", remoteName).Exec(ctx)
	return pushMirrorMapping.affected(res, err)
}

// Schedule sets when the next scheduled push is due.
func (s *PushMirrorStore) Schedule(ctx context.Context, id int64, next time.Time) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*pushMirrorRow)(nil)).
		Set("next_update = ?", nullTime(next)).Where("id = ?", id).Exec(ctx)
	return pushMirrorMapping.affected(res, err)
}

// Due reads the overdue push mirrors, the longest overdue first.
func (s *PushMirrorStore) Due(ctx context.Context, now time.Time, limit int) ([]*ports.PushMirror, error) {
	var rows []pushMirrorRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Where("pm.next_update IS NOT NULL").
		Where("pm.next_update <= ?", dbTime(now)).OrderExpr("pm.next_update ASC, pm.id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, pushMirrorMapping.mapErr(err)
	}
	return pushMirrorsToDomain(rows), nil
}

// RecordSync stores an attempt's outcome.
func (s *PushMirrorStore) RecordSync(ctx context.Context, id int64, lastUpdate time.Time, lastError string) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*pushMirrorRow)(nil)).
		Set("last_update = ?", nullTime(lastUpdate)).Set("last_error = ?", lastError).Where("id = ?", id).Exec(ctx)
	return pushMirrorMapping.affected(res, err)
}
