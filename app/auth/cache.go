package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"sync"
	"time"

	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// maxCacheEntries bounds each cache; when full it is emptied, which only
// costs the next requests one slow verification each.
const maxCacheEntries = 10000

// VerifierCache remembers, for a few minutes, that a user's password was
// verified, so repeated Basic-auth requests do not each pay the KDF. Entries
// are keyed by an HMAC (with a per-process random key) of the user id, the
// user's password version and the password: the password is never kept, a
// leaked key set reveals nothing, and a password change (which bumps the
// version, also from the admin CLI in another process) misses at once.
type VerifierCache struct {
	mu      sync.Mutex
	key     []byte
	ttl     time.Duration
	clock   ports.Clock
	entries map[[32]byte]time.Time
	stats   *ports.CacheStats
}

// NewVerifierCache returns a cache whose entries live for ttl.
func NewVerifierCache(clock ports.Clock, ttl time.Duration) *VerifierCache {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the platform is broken; nothing is safe
	}
	return &VerifierCache{key: key, ttl: ttl, clock: clock, entries: make(map[[32]byte]time.Time),
		stats: ports.NewCacheStats("passwords", true)}
}

// Stats counts the cache's hits and misses, for the metrics page.
func (c *VerifierCache) Stats() *ports.CacheStats { return c.stats }

func (c *VerifierCache) digest(u *user.User, password string) [32]byte {
	m := hmac.New(sha256.New, c.key)
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(u.ID))
	binary.BigEndian.PutUint64(buf[8:], uint64(u.PasswordVersion))
	m.Write(buf[:])
	m.Write([]byte(u.PasswordHash))
	m.Write([]byte(password))
	var out [32]byte
	copy(out[:], m.Sum(nil))
	return out
}

// Check reports whether password was verified for u recently.
func (c *VerifierCache) Check(u *user.User, password string) bool {
	d := c.digest(u, password)
	c.mu.Lock()
	defer c.mu.Unlock()
	exp, ok := c.entries[d]
	if !ok {
		c.stats.Miss()
		return false
	}
	if c.clock.Now().After(exp) {
		delete(c.entries, d)
		c.stats.SetEntries(len(c.entries))
		c.stats.Miss()
		return false
	}
	c.stats.Hit()
	return true
}

// Remember records a successful verification.
func (c *VerifierCache) Remember(u *user.User, password string) {
	d := c.digest(u, password)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCacheEntries {
		c.stats.Evicted(len(c.entries))
		clear(c.entries)
	}
	c.entries[d] = c.clock.Now().Add(c.ttl)
	c.stats.SetEntries(len(c.entries))
}

// TokenCache remembers which token, and which user, a secret belongs to for a
// few seconds, so a busy client costs no database read at all. Deleting a
// token, and every change to a user made through the server, forgets the
// entries at once (users.Service calls ForgetUser after each write); the TTL
// bounds how long a change made by another process (the admin CLI) can go
// unseen.
type TokenCache struct {
	ports.DropSharing
	mu     sync.Mutex
	ttl    time.Duration
	clock  ports.Clock
	bySum  map[[32]byte]tokenEntry
	byID   map[int64][32]byte
	byUser map[int64]map[int64]struct{}
	stats  *ports.CacheStats
}

type tokenEntry struct {
	tok  *token.AccessToken
	user *user.User
	exp  time.Time
}

var _ ports.SharedCache = (*TokenCache)(nil)

// NewTokenCache returns a cache whose entries live for ttl.
func NewTokenCache(clock ports.Clock, ttl time.Duration) *TokenCache {
	c := &TokenCache{ttl: ttl, clock: clock, stats: ports.NewCacheStats("tokens", true)}
	c.reset()
	return c
}

// Stats counts the cache's hits and misses, for the metrics page.
func (c *TokenCache) Stats() *ports.CacheStats { return c.stats }

func (c *TokenCache) reset() {
	c.bySum = make(map[[32]byte]tokenEntry)
	c.byID = make(map[int64][32]byte)
	c.byUser = make(map[int64]map[int64]struct{})
	c.stats.SetEntries(0)
}

// Get returns the token of secret and its user when cached and fresh. The
// user is a copy the caller owns; the token is shared and must not be changed.
func (c *TokenCache) Get(secret string) (*token.AccessToken, *user.User, bool) {
	sum := sha256.Sum256([]byte(secret))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.bySum[sum]
	if !ok {
		c.stats.Miss()
		return nil, nil, false
	}
	if c.clock.Now().After(e.exp) {
		c.forgetLocked(e.tok.ID)
		c.stats.Miss()
		return nil, nil, false
	}
	c.stats.Hit()
	u := *e.user
	return e.tok, &u, true
}

// Put caches t, and a copy of its user u, as the token of secret.
func (c *TokenCache) Put(secret string, t *token.AccessToken, u *user.User) {
	sum := sha256.Sum256([]byte(secret))
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bySum) >= maxCacheEntries {
		c.stats.Evicted(len(c.bySum))
		c.reset()
	}
	cp := *u
	c.bySum[sum] = tokenEntry{tok: t, user: &cp, exp: c.clock.Now().Add(c.ttl)}
	c.byID[t.ID] = sum
	set := c.byUser[t.UserID]
	if set == nil {
		set = make(map[int64]struct{})
		c.byUser[t.UserID] = set
	}
	set[t.ID] = struct{}{}
	c.stats.SetEntries(len(c.bySum))
}

// Forget drops the token with id, here and on the servers that share the
// database.
func (c *TokenCache) Forget(id int64) {
	c.forget(id)
	c.Share(ports.CacheDrop{Cache: ports.CacheToken, ID: id})
}

// ForgetUser drops every token of a user (deleted, disabled, or renamed),
// here and on the servers that share the database.
func (c *TokenCache) ForgetUser(userID int64) {
	c.forgetUser(userID)
	c.Share(ports.CacheDrop{Cache: ports.CacheUserTokens, ID: userID})
}

// ApplyDrop drops what another server's drop names.
func (c *TokenCache) ApplyDrop(d ports.CacheDrop) {
	switch d.Cache {
	case ports.CacheToken:
		c.forget(d.ID)
	case ports.CacheUserTokens:
		c.forgetUser(d.ID)
	}
}

// DropAll empties the cache.
func (c *TokenCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reset()
}

func (c *TokenCache) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetLocked(id)
}

func (c *TokenCache) forgetUser(userID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.byUser[userID] {
		c.forgetLocked(id)
	}
	delete(c.byUser, userID)
}

func (c *TokenCache) forgetLocked(id int64) {
	sum, ok := c.byID[id]
	if !ok {
		return
	}
	if e, ok := c.bySum[sum]; ok {
		if set := c.byUser[e.tok.UserID]; set != nil {
			delete(set, id)
		}
	}
	delete(c.bySum, sum)
	delete(c.byID, id)
	c.stats.SetEntries(len(c.bySum))
}
