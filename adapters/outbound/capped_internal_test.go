package outbound

import (
	"strings"
	"sync"
	"testing"
)

// Two goroutines write at once, as os/exec's copiers of stdout and stderr
// do; under -race this shows any unguarded access. The tail is kept.
func TestCappedBufferConcurrentWriters(t *testing.T) {
	b := &cappedBuffer{max: 64}
	var wg sync.WaitGroup
	for _, s := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				_, _ = b.Write([]byte(s))
			}
		}()
	}
	wg.Wait()
	if got := b.String(); len(got) != 64 || strings.Trim(got, "ab") != "" {
		t.Fatalf("kept %q", got)
	}
}
