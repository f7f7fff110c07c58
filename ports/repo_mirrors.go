package ports

import (
	"context"
	"time"
)

// Mirror is a pull mirror's settings and sync state: where the repository
// pulls from, how often, and how the last sync went.
type Mirror struct {
	RepoID int64
	// RemoteURL is the address pulled from, without credentials.
	RemoteURL string
	// Credentials are the remote's user name and password sealed by a
	// SecretBox; empty when the remote needs none.
	Credentials string
	// Interval is the time between scheduled syncs; 0 means none are scheduled.
	Interval time.Duration
	// NextUpdate is when the next scheduled sync is due; zero when none is.
	NextUpdate time.Time
	// Updated is when a sync last succeeded (Gitea's mirror_updated).
	Updated time.Time
	// LastError is what the last sync reported; empty after a success.
	LastError string
}

// MirrorStore persists pull mirrors, one per repository; the row goes with
// its repository. Missing rows are errs.ErrNotFound.
type MirrorStore interface {
	// Create adds a mirror; errs.ErrConflict when the repository has one,
	// errs.ErrNotFound when the repository is gone.
	Create(ctx context.Context, m *Mirror) error
	Get(ctx context.Context, repoID int64) (*Mirror, error)
	// Schedule sets the interval and when the next scheduled sync is due.
	Schedule(ctx context.Context, repoID int64, interval time.Duration, next time.Time) error
	// RecordSync stores a sync's outcome: a non-zero updated replaces
	// Updated and lastError replaces LastError.
	RecordSync(ctx context.Context, repoID int64, updated time.Time, lastError string) error
	// UpdatedTimes returns, in one query, when the mirrors of the given
	// repositories last synced successfully (Updated), by repository id; a
	// repository without a mirror row, or whose mirror never synced, is
	// absent. For rendering a page of repositories.
	UpdatedTimes(ctx context.Context, repoIDs []int64) (map[int64]time.Time, error)
	// Due returns up to limit mirrors whose scheduled sync was due at or
	// before now, the longest overdue first.
	Due(ctx context.Context, now time.Time, limit int) ([]*Mirror, error)
}

// PushMirror is a remote that a repository's branches and tags are pushed to.
type PushMirror struct {
	ID     int64
	RepoID int64
	// RemoteName names the push mirror within its repository
	// ("remote_mirror_…", as Gitea names them).
	RemoteName string
	// RemoteAddress is the address pushed to, without credentials.
	RemoteAddress string
	// Credentials are sealed by a SecretBox, as Mirror's are.
	Credentials string
	// Interval is the time between scheduled pushes; 0 means none.
	Interval time.Duration
	// SyncOnCommit pushes after every push to the repository.
	SyncOnCommit bool
	// NextUpdate is when the next scheduled push is due; zero when none is.
	NextUpdate time.Time
	// LastUpdate is when a push was last attempted; zero before the first.
	LastUpdate time.Time
	// LastError is what the last attempt reported; empty after a success.
	LastError string
	Created   time.Time
}

// PushMirrorStore persists push mirrors. A remote name is unique per
// repository (errs.ErrConflict); missing rows are errs.ErrNotFound; rows go
// with their repository.
type PushMirrorStore interface {
	// Create adds m and sets its ID.
	Create(ctx context.Context, m *PushMirror) error
	// Get finds a repository's push mirror by remote name.
	Get(ctx context.Context, repoID int64, remoteName string) (*PushMirror, error)
	GetByID(ctx context.Context, id int64) (*PushMirror, error)
	// List returns one page of a repository's push mirrors ordered by id, and the total.
	List(ctx context.Context, repoID int64, opts ListOptions) ([]*PushMirror, int64, error)
	// ListForSync returns every push mirror of a repository, or only those
	// that sync on commit, ordered by id.
	ListForSync(ctx context.Context, repoID int64, onCommitOnly bool) ([]*PushMirror, error)
	Delete(ctx context.Context, repoID int64, remoteName string) error
	// Schedule sets when the next scheduled push is due (zero: none).
	Schedule(ctx context.Context, id int64, next time.Time) error
	// RecordSync stores an attempt's outcome: when, and what it reported.
	RecordSync(ctx context.Context, id int64, lastUpdate time.Time, lastError string) error
	// Due returns up to limit push mirrors whose scheduled push was due at
	// or before now, the longest overdue first.
	Due(ctx context.Context, now time.Time, limit int) ([]*PushMirror, error)
}

// SecretBox seals secrets the service must read back later (a mirror's
// credentials, which git needs in clear) so that the database never holds
// them in plain text. A sealed value is bound to a label (what it belongs
// to): opening it under another label fails, so sealed values cannot be
// moved between rows.
type SecretBox interface {
	Seal(plain []byte, label string) (string, error)
	// Open returns the plain text of a value Seal made with the same label.
	Open(sealed, label string) ([]byte, error)
}
