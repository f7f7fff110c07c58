package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/repository"
)

// issueSubscriptions serves users' subscriptions to issues (catalogue 4.6).
type issueSubscriptions struct{ *kernel }

// issueSubscriptionRoutes are the rows of issueSubscriptions.
func (s *kernel) issueSubscriptionRoutes() []route {
	h := issueSubscriptions{s}
	return []route{
		{"GET", R + "/issues/{index}/subscriptions", scopes(catIssue), "IssuesOrPulls", h.listIssueSubscribers},
		{"GET", R + "/issues/{index}/subscriptions/check", scopes(catIssue), "IssuesOrPulls,T", h.checkIssueSubscription},
		{"PUT", R + "/issues/{index}/subscriptions/{user}", scopes(catIssue), "IssuesOrPulls,T", h.subscribeIssue},
		{"DELETE", R + "/issues/{index}/subscriptions/{user}", scopes(catIssue), "IssuesOrPulls,T", h.unsubscribeIssue},
	}
}

// listIssueSubscribers answers GET R/issues/{index}/subscriptions.
func (s issueSubscriptions) listIssueSubscribers(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Subscriptions().List(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// checkIssueSubscription answers GET R/issues/{index}/subscriptions/check.
func (s issueSubscriptions) checkIssueSubscription(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	on, i, err := s.issues.Subscriptions().Check(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	issueURL := s.issueAPIURL(q.repo.Repo, i.Index)
	q.json(http.StatusOK, issueWatchDTO{Subscribed: on, Ignored: !on, CreatedAt: i.CreatedAt.UTC(),
		URL: issueURL + "/subscriptions", RepositoryURL: s.repoAPIURL(q.repo.Repo)})
	return nil
}

// subscribeIssue answers PUT R/issues/{index}/subscriptions/{user}: 201
// when subscribed now, 200 when already.
func (s issueSubscriptions) subscribeIssue(q *request) error { return s.issueSubscription(q, true) }

// unsubscribeIssue answers DELETE R/issues/{index}/subscriptions/{user}:
// 201 when unsubscribed now, 200 when already.
func (s issueSubscriptions) unsubscribeIssue(q *request) error { return s.issueSubscription(q, false) }

func (s issueSubscriptions) issueSubscription(q *request, watch bool) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	changed, err := s.issues.Subscriptions().Set(q.r.Context(), q.repo, index, q.var_("user"), watch)
	if err != nil {
		return err
	}
	if changed {
		q.w.WriteHeader(http.StatusCreated)
	} else {
		q.w.WriteHeader(http.StatusOK)
	}
	return nil
}

// issueAPIURL is the API address of issue index of r.
func (s issueSubscriptions) issueAPIURL(r *repository.Repository, index int64) string {
	return s.repoAPIURL(r) + "/issues/" + itoa(index)
}

// issueWatchDTO is Gitea's WatchInfo for an issue subscription.
type issueWatchDTO struct {
	Subscribed    bool      `json:"subscribed"`
	Ignored       bool      `json:"ignored"`
	Reason        any       `json:"reason"`
	CreatedAt     time.Time `json:"created_at"`
	URL           string    `json:"url"`
	RepositoryURL string    `json:"repository_url"`
}
