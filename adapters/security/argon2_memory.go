package security

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// Each argon2id derivation allocates its whole memory cost (19 MiB by
// default) at once. Without a bound, a burst of sign-ins holds one arena
// per request, and after the burst the heap keeps them: ten Basic-auth
// requests left the process at 121 MB. The arena keeps derivations to
// maxDerivations at once (a sign-in past them waits for a slot) and, once a
// burst is over, hands the memory back to the system.

// maxDerivations bounds concurrent derivations, whatever the number of CPUs:
// the arenas of a burst then take at most 2 × 19 MiB, and two derivations
// (about 25 ms each) still sign in some 80 people a second. On one CPU the
// bound is one, since a second derivation would only share that CPU.
const maxDerivations = 2

// memoryReturnDelay is how long the hasher waits without a derivation
// before it returns the memory: long enough that a burst costs one return,
// short enough that an idle server is small again soon.
const memoryReturnDelay = 2 * time.Second

// argon2Arena bounds concurrent derivations and returns their memory after
// a burst.
type argon2Arena struct {
	slots chan struct{}
	// release returns freed memory to the system (debug.FreeOSMemory).
	release func()
	delay   time.Duration

	mu       sync.Mutex
	inFlight int
	peak     int
	timer    *time.Timer
}

func newArgon2Arena() *argon2Arena {
	return &argon2Arena{slots: make(chan struct{}, min(maxDerivations, max(1, runtime.GOMAXPROCS(0)))),
		release: debug.FreeOSMemory, delay: memoryReturnDelay}
}

// derive runs f in a slot, waiting for one if every slot is taken.
func (a *argon2Arena) derive(f func() []byte) []byte {
	a.slots <- struct{}{}
	a.mu.Lock()
	a.inFlight++
	a.peak = max(a.peak, a.inFlight)
	if a.timer != nil {
		a.timer.Stop()
	}
	a.mu.Unlock()
	defer func() {
		<-a.slots
		a.mu.Lock()
		defer a.mu.Unlock()
		a.inFlight--
		if a.inFlight == 0 {
			// The last derivation of a burst: return the memory unless
			// another starts before the delay is over.
			if a.timer == nil {
				a.timer = time.AfterFunc(a.delay, a.returnMemory)
			} else {
				a.timer.Reset(a.delay)
			}
		}
	}()
	return f()
}

// returnMemory runs release if no derivation started since the timer did.
func (a *argon2Arena) returnMemory() {
	a.mu.Lock()
	busy := a.inFlight > 0
	a.mu.Unlock()
	if !busy {
		a.release()
	}
}
