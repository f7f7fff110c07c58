package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// repoWatches serves the watches (subscriptions) of repositories (catalogue 4.5).
// The rows of the repositories a user watches (/user/subscriptions,
// /users/{username}/subscriptions) sit with the user rows, so their
// handlers (listMySubscriptions, listUserSubscriptions) are kernel methods.
type repoWatches struct{ *kernel }

// repoWatchRoutes are the rows of repoWatches.
func (s *kernel) repoWatchRoutes() []route {
	h := repoWatches{s}
	return []route{
		{"GET", R + "/subscribers", scopes(catRepo), "-", h.listSubscribers},
		{"GET", R + "/subscription", scopes(catRepo), "T", h.getSubscription},
		{"PUT", R + "/subscription", scopes(catRepo), "T,NotBlocked", h.watch},
		{"DELETE", R + "/subscription", scopes(catRepo), "T", h.unwatch},
	}
}

// listSubscribers answers GET R/subscribers.
func (s repoWatches) listSubscribers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Watches().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

// getSubscription answers GET R/subscription: 200 with WatchInfo, or 404.
func (s repoWatches) getSubscription(q *request) error {
	w, err := s.repos.Watches().Get(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toWatch(q.repo, w))
	return nil
}

// watch answers PUT R/subscription.
func (s repoWatches) watch(q *request) error {
	w, err := s.repos.Watches().Add(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toWatch(q.repo, w))
	return nil
}

// unwatch answers DELETE R/subscription.
func (s repoWatches) unwatch(q *request) error {
	return noContent(q, s.repos.Watches().Remove(q.r.Context(), q.repo))
}

// listMySubscriptions answers GET /user/subscriptions.
func (s repoWatches) listMySubscriptions(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Watches().ListByUser(q.r.Context(), q.caller, q.caller.User, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// listUserSubscriptions answers GET /users/{username}/subscriptions.
func (s repoWatches) listUserSubscriptions(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Watches().ListByUser(q.r.Context(), q.caller, q.subject, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// watchDTO is Gitea's WatchInfo.
type watchDTO struct {
	Subscribed    bool      `json:"subscribed"`
	Ignored       bool      `json:"ignored"`
	Reason        any       `json:"reason"`
	CreatedAt     time.Time `json:"created_at"`
	URL           string    `json:"url"`
	RepositoryURL string    `json:"repository_url"`
}

func (s repoWatches) toWatch(a *repos.Access, w *ports.Watch) watchDTO {
	repoURL := s.repoAPIURL(a.Repo)
	return watchDTO{
		Subscribed: w.Mode == repository.WatchNormal || w.Mode == repository.WatchAuto, Ignored: w.Mode == repository.WatchDont,
		CreatedAt: w.Created.UTC(), URL: repoURL + "/subscription", RepositoryURL: repoURL,
	}
}

// userWatchRoutes are the 4.4 rows of an account's watched repositories.
func (s *kernel) userWatchRoutes() []route {
	h := repoWatches{s}
	return []route{
		{"GET", "/users/{username}/subscriptions", scopes(catUser), "T", h.listUserSubscriptions},
		{"GET", "/user/subscriptions", scopes(catUser), "T", h.listMySubscriptions},
	}
}
