package security

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestArgon2ArenaBoundsAndReturnsMemory verifies a burst of passwords at
// the default cost: no more derivations at once than CPUs, one return of
// the memory after the burst, and no arena's worth kept by the heap.
func TestArgon2ArenaBoundsAndReturnsMemory(t *testing.T) {
	is := is.New(t)
	h := NewArgon2idHasher(DefaultArgon2Params())
	var returns atomic.Int32
	h.arena.delay = 50 * time.Millisecond
	h.arena.release = func() { debug.FreeOSMemory(); returns.Add(1) }
	encoded, err := h.Hash("correct horse")
	is.NoErr(err)
	waitReturns(t, &returns, 1)

	for burst := 2; burst <= 3; burst++ {
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				ok, err := h.Verify(encoded, "correct horse")
				if err != nil || !ok {
					t.Errorf("verify: %v %v", ok, err)
				}
			})
		}
		wg.Wait()
		waitReturns(t, &returns, int32(burst)) // one return per burst
		is.True(h.arena.peak <= max(1, runtime.GOMAXPROCS(0)))

		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		kept := ms.HeapIdle - ms.HeapReleased
		if kept >= 19<<20 {
			t.Fatalf("the heap keeps %d MiB of idle memory after the burst", kept>>20)
		}
	}
}

// waitReturns polls until the arena returned memory n times, and checks it
// did not return it more often (a burst returns it once).
func waitReturns(t *testing.T, returns *atomic.Int32, n int32) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for returns.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("memory returned %d times, want %d", returns.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := returns.Load(); got != n {
		t.Fatalf("memory returned %d times, want %d", got, n)
	}
}
