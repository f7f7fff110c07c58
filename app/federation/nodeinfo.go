// Package federation describes the site to other servers (NodeInfo 2.1)
// and serves its accounts as ActivityPub actors, when the site's
// [federation] table turns it on.
package federation

import (
	"context"
	"sync"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// usageTTL is how long the counts are kept: NodeInfo is polled by crawlers,
// and the counts need not be to the second (Gitea keeps them 3 minutes).
const usageTTL = 3 * time.Minute

// Service answers NodeInfo and ActivityPub.
type Service struct {
	stats    ports.SiteStatistics
	clock    ports.Clock
	settings site.Federation
	stores   ports.Stores
	tx       ports.Transactor
	box      ports.SecretBox
	keyPairs ports.ActorKeyPairs
	remote   ports.RemoteActorKeys

	remoteKeys *remoteKeyCache

	mu      sync.Mutex
	usage   ports.SiteUsage
	counted time.Time
}

// NewService builds the service.
func NewService(stats ports.SiteStatistics, clock ports.Clock, settings site.Settings, stores ports.Stores, tx ports.Transactor,
	box ports.SecretBox, keyPairs ports.ActorKeyPairs, remote ports.RemoteActorKeys) *Service {
	return &Service{stats: stats, clock: clock, settings: settings.Federation, stores: stores, tx: tx, box: box,
		keyPairs: keyPairs, remote: remote, remoteKeys: &remoteKeyCache{keys: map[string]cachedRemoteKey{},
			stats: ports.NewCacheStats("activitypub_remote_keys", true)}}
}

// RemoteKeyCacheStats counts the remote key cache's lookups, for the
// metrics page.
func (s *Service) RemoteKeyCacheStats() *ports.CacheStats { return s.remoteKeys.stats }

// NodeInfo is what the site tells about itself.
type NodeInfo struct {
	// Usage is nil when the site shares no statistics.
	Usage *ports.SiteUsage
}

// Enabled reports whether federation is on.
func (s *Service) Enabled() bool { return s.settings.Enabled }

// NodeInfo returns the site's description: not found while federation is
// off, as Gitea registers no route then.
func (s *Service) NodeInfo(ctx context.Context) (NodeInfo, error) {
	if !s.settings.Enabled {
		return NodeInfo{}, errs.NotFound("route not found")
	}
	if !s.settings.ShareUserStatistics {
		return NodeInfo{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	if s.counted.IsZero() || now.Sub(s.counted) >= usageTTL {
		u, err := s.stats.SiteUsage(ctx, now.AddDate(0, -6, 0), now.AddDate(0, -1, 0))
		if err != nil {
			return NodeInfo{}, err
		}
		s.usage, s.counted = u, now
	}
	u := s.usage
	return NodeInfo{Usage: &u}, nil
}
