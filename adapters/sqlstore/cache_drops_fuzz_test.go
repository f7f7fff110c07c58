package sqlstore

import (
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
)

// FuzzParseCacheDrops reads arbitrary notification payloads: never a
// panic, never more drops than words, and what encodeCacheDrops wrote of
// the drops read is read back the same.
func FuzzParseCacheDrops(f *testing.F) {
	for _, s := range []string{"", "token:1", "token:1 user_tokens:2", "*:0", "x:", ":5", "a:b:c", "token:-9223372036854775808", "  \t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		drops := parseCacheDrops(payload)
		if len(drops) > len(strings.Fields(payload)) {
			t.Fatalf("%d drops from %d words", len(drops), len(strings.Fields(payload)))
		}
		var again []ports.CacheDrop
		for _, p := range encodeCacheDrops(drops) {
			if len(p) > maxDropPayload {
				t.Fatalf("payload of %d bytes", len(p))
			}
			again = append(again, parseCacheDrops(p)...)
		}
		if len(again) != len(drops) {
			t.Fatalf("round trip: %v then %v", drops, again)
		}
		for i := range drops {
			if again[i] != drops[i] {
				t.Fatalf("round trip: %v then %v", drops, again)
			}
		}
	})
}
