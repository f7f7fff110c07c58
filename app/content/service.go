// Package content holds the use cases over a repository's Git content:
// branches and tags, commits, trees, files and raw blobs, archives, file
// changes written as commits, analyses (languages, licences, editorconfig)
// and commit statuses. The HTTP adapter has already resolved the repository
// and enforced the route's access codes; these use cases take the resolved
// *repos.Access and talk to Git through ports.GitContent.
package content

import (
	"context"

	"log/slog"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// Service runs the content use cases.
type Service struct {
	stores  ports.Stores
	tx      ports.Transactor
	git     ports.GitContent
	storage ports.GitStorage
	// refs moves branches by compare-and-swap and answers ancestry.
	refs ports.GitPulls
	// blobs holds release assets' bytes, in the issue attachments' store.
	blobs  ports.AttachmentBlobs
	clock  ports.Clock
	events ports.Events
	users  *users.Service
	// signsCommits reports whether Depot signs the commits it writes;
	// signingKey is the public key it signs them with.
	signsCommits func() bool
	signingKey   func() []byte
	repos        *repos.Service
	settings     site.Settings
	log          *slog.Logger
	// statusRecorders queue, in the transaction that stores a commit
	// status, the work it causes elsewhere (automatic merges).
	statusRecorders []StatusRecorder
	// releasePages keeps release list pages (release_pages.go).
	releasePages *releasePageCache
}

// StatusRecorder queues, inside the transaction that stores a commit
// status on commit sha of r, the work the status causes elsewhere.
type StatusRecorder func(ctx context.Context, tx ports.Stores, r *repository.Repository, sha string) error

// OnStatus registers a StatusRecorder; call it while wiring, before serving.
func (s *Service) OnStatus(f StatusRecorder) { s.statusRecorders = append(s.statusRecorders, f) }

// NewService builds the content use cases.
func NewService(stores ports.Stores, tx ports.Transactor, git ports.GitContent, storage ports.GitStorage,
	refs ports.GitPulls, blobs ports.AttachmentBlobs, clock ports.Clock, events ports.Events, us *users.Service,
	rs *repos.Service, ts *transport.Service, settings site.Settings, log *slog.Logger) *Service {
	s := &Service{stores: stores, tx: tx, git: git, storage: storage, refs: refs, blobs: blobs, clock: clock,
		events: events, users: us, repos: rs,
		settings: settings, log: log, releasePages: &releasePageCache{stats: ports.NewCacheStats("release_pages", true)}}
	ts.OnPush(Releases{s}.recordPush)
	ts.VerifyCommitsWith(Commits{s}.FirstUnverified)
	s.signsCommits, s.signingKey = ts.SignsCommits, ts.SigningKey
	return s
}

// ReleasePageCacheStats counts the release page cache's lookups, for the
// metrics page.
func (s *Service) ReleasePageCacheStats() *ports.CacheStats { return s.releasePages.stats }

// pathOf addresses r's Git repository.
func pathOf(r *repository.Repository) ports.RepoPath {
	return ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
}
