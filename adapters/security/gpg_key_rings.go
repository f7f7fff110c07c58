package security

import (
	"container/list"
	"crypto/sha256"
	"strings"
	"sync"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/depothq/depot/ports"
)

// keyRingCacheSize bounds the parsed key rings kept: a key ring is a few
// KiB parsed, and a busy site checks signatures of far fewer committers
// than this at once.
const keyRingCacheSize = 512

// keyRings keeps the key rings parsed from armored public keys, least
// recently used first out. An entry is keyed by the SHA-256 of the whole
// armored text, so it stands for nothing but that text: two accounts that
// store the same key share the parse, exactly as parsing twice would give
// them the same ring, and a key edited or deleted is simply never asked for
// again. Parse errors are not kept (they are cheap: the text is refused
// early). Verification only reads a ring, so one ring serves concurrent
// checks.
type keyRings struct {
	mu      sync.Mutex
	max     int
	order   *list.List // of *keyRingEntry, most recent first
	entries map[[sha256.Size]byte]*list.Element
	// stats counts the lookups, for the metrics page.
	stats *ports.CacheStats
}

type keyRingEntry struct {
	sum  [sha256.Size]byte
	ring openpgp.EntityList
}

func newKeyRings(max int) *keyRings {
	return &keyRings{max: max, order: list.New(), entries: make(map[[sha256.Size]byte]*list.Element),
		stats: ports.NewCacheStats("gpg_key_rings", true)}
}

// parse returns the key ring of armored, parsing it unless a ring of the
// same text is kept. A nil keyRings parses every time.
func (k *keyRings) parse(armored string) (openpgp.EntityList, error) {
	if k == nil {
		return openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
	}
	sum := sha256.Sum256([]byte(armored))
	k.mu.Lock()
	if e, ok := k.entries[sum]; ok {
		k.order.MoveToFront(e)
		ring := e.Value.(*keyRingEntry).ring
		k.mu.Unlock()
		k.stats.Hit()
		return ring, nil
	}
	k.mu.Unlock()
	k.stats.Miss()
	ring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if e, ok := k.entries[sum]; ok { // parsed meanwhile by another check
		k.order.MoveToFront(e)
		return e.Value.(*keyRingEntry).ring, nil
	}
	k.entries[sum] = k.order.PushFront(&keyRingEntry{sum: sum, ring: ring})
	for k.order.Len() > k.max {
		oldest := k.order.Back()
		k.order.Remove(oldest)
		delete(k.entries, oldest.Value.(*keyRingEntry).sum)
		k.stats.Evicted(1)
	}
	k.stats.SetEntries(k.order.Len())
	return ring, nil
}

// len says how many rings are kept.
func (k *keyRings) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.order.Len()
}
