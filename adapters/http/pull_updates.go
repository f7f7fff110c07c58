package http

import (
	"net/http"

	"github.com/depothq/depot/app/pulls"
)

// pullUpdates serves bringing a pull request's head branch up to date with
// its base (catalogue 4.5).
type pullUpdates struct{ *kernel }

// pullUpdateRoutes are the rows of pullUpdates.
func (s *kernel) pullUpdateRoutes() []route {
	h := pullUpdates{s}
	return []route{
		{"POST", R + "/pulls/{index}/update", scopes(catRepo), "Pulls,RR(code),T", h.updatePull},
	}
}

// updatePull answers POST R/pulls/{index}/update?style=merge|rebase with
// 200 once the head branch holds the base.
func (s pullUpdates) updatePull(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	style, err := pulls.ParseUpdateStyle(q.r.URL.Query().Get("style"))
	if err != nil {
		return err
	}
	if err := s.pulls.Update(q.r.Context(), q.repo, index, style); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}
