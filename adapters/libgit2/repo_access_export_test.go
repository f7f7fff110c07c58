package libgit2

import "sync"

// repoOpens counts the repositories opened, by directory, for the tests
// that measure how often a call opens its repository. Directories are
// per test, so tests running in parallel do not count each other's.
var repoOpens struct {
	mu sync.Mutex
	n  map[string]int
}

func init() {
	repoOpens.n = map[string]int{}
	openHook = func(dir string) {
		repoOpens.mu.Lock()
		repoOpens.n[dir]++
		repoOpens.mu.Unlock()
	}
}

// RepoOpens is how many times the repository in dir was opened so far.
func RepoOpens(dir string) int {
	repoOpens.mu.Lock()
	defer repoOpens.mu.Unlock()
	return repoOpens.n[dir]
}
