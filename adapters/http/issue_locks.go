package http

import "net/http"

// issueLocks serves the locking of issues' conversations (catalogue 4.6).
type issueLocks struct{ *kernel }

// issueLockRoutes are the rows of issueLocks.
func (s *kernel) issueLockRoutes() []route {
	h := issueLocks{s}
	return []route{
		{"PUT", R + "/issues/{index}/lock", scopes(catIssue), "IssuesOrPulls,T,RA", h.lockIssue},
		{"DELETE", R + "/issues/{index}/lock", scopes(catIssue), "IssuesOrPulls,T,RA", h.unlockIssue},
	}
}

// lockIssue answers PUT R/issues/{index}/lock: 204, or 208 when it was
// locked already (Gitea's answer).
func (s issueLocks) lockIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b struct {
		Reason string `json:"lock_reason"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	return s.lockAnswer(q)(s.issues.Locks().Set(q.r.Context(), q.repo, index, true, b.Reason))
}

// unlockIssue answers DELETE R/issues/{index}/lock: 204, or 208 when it
// was not locked.
func (s issueLocks) unlockIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.lockAnswer(q)(s.issues.Locks().Set(q.r.Context(), q.repo, index, false, ""))
}

func (s issueLocks) lockAnswer(q *request) func(changed bool, err error) error {
	return func(changed bool, err error) error {
		if err != nil {
			return err
		}
		if changed {
			q.w.WriteHeader(http.StatusNoContent)
		} else {
			q.w.WriteHeader(http.StatusAlreadyReported)
		}
		return nil
	}
}
