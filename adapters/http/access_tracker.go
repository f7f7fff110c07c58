package http

import "strings"

// issueGroupRoute reports whether path is in Gitea 1.27's /issues route
// group under a repository (routers/api/v1/api.go: `m.Group("/issues", …,
// mustEnableIssuesOrPulls)` — the issue, comment, label, reaction,
// attachment, time, stopwatch, subscription, dependency, pin and lock
// routes). Every route there carries the tracker rule, applied once by the
// access middleware (permission.CheckIssueTracker), so no handler or use case
// has to remember it. R/labels and R/milestones sit outside that group in
// Gitea and are not covered.
func issueGroupRoute(path string) bool {
	rest, ok := strings.CutPrefix(path, R+"/issues")
	return ok && (rest == "" || strings.HasPrefix(rest, "/"))
}
