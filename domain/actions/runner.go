package actions

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// How long after its last request a runner still counts as online, and
// after its last report on a task as busy (Gitea's RunnerOfflineTime and
// RunnerIdleTime).
const (
	RunnerOfflineAfter = time.Minute
	RunnerIdleAfter    = 10 * time.Second
)

// RunnerNameMaxLength is the longest runner name kept; a longer one is cut.
const RunnerNameMaxLength = 255

// Runner is a machine that runs jobs: registered with a scope's
// registration token, it takes the jobs of that scope (an account's, a
// repository's, or any with the site's zero scope) whose labels it has.
type Runner struct {
	ID   int64
	UUID string
	Name string
	// Scope is whose runner it is; zero is the site's.
	Scope Scope
	// TokenHash is the hash (HashRunnerToken) of the token it authenticates with.
	TokenHash string
	Labels    []string
	Version   string
	Ephemeral bool
	// LastOnline is its last request, LastActive its last report on a task.
	LastOnline, LastActive time.Time
	Created                time.Time
}

// Online says whether the runner asked for work lately.
func (r *Runner) Online(now time.Time) bool {
	return !r.LastOnline.IsZero() && now.Sub(r.LastOnline) < RunnerOfflineAfter
}

// Busy says whether the runner is online and reported on a task lately.
func (r *Runner) Busy(now time.Time) bool {
	return r.Online(now) && !r.LastActive.IsZero() && now.Sub(r.LastActive) < RunnerIdleAfter
}

// TokenMatches compares token with the runner's in constant time.
func (r *Runner) TokenMatches(token string) bool {
	h := HashRunnerToken(token)
	return len(r.TokenHash) == len(h) && subtle.ConstantTimeCompare([]byte(h), []byte(r.TokenHash)) == 1
}

// CanRun says whether the runner may take a job of the repository repoID
// owned by ownerID: the site's runners take every job, an account's the
// jobs of its repositories, a repository's its own.
func (r *Runner) CanRun(ownerID, repoID int64) bool {
	switch {
	case r.Scope.RepoID != 0:
		return r.Scope.RepoID == repoID
	case r.Scope.OwnerID != 0:
		return r.Scope.OwnerID == ownerID
	}
	return true
}

// RunnerName trims name and cuts it to RunnerNameMaxLength bytes on a
// character boundary; "" means the name is missing.
func RunnerName(name string) string {
	name = strings.TrimSpace(name)
	if len(name) <= RunnerNameMaxLength {
		return name
	}
	cut := RunnerNameMaxLength
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut]
}

// RunnerLabels are labels without blanks and duplicates, in their order.
func RunnerLabels(labels []string) []string {
	out := make([]string, 0, len(labels))
	seen := map[string]bool{}
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" || seen[l] || strings.ContainsAny(l, "\n\r") {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

// NewRunnerUUID returns a random (version 4) UUID naming a runner.
func NewRunnerUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
