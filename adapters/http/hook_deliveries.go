package http

import "net/http"

// hookDeliveries serves the deliveries of a repository's webhooks: the
// test delivery (catalogue 4.5).
type hookDeliveries struct{ *kernel }

// hookDeliveryRoutes are the rows of hookDeliveries.
func (s *kernel) hookDeliveryRoutes() []route {
	h := hookDeliveries{s}
	return []route{
		{"POST", R + "/hooks/{id}/tests", scopes(catRepo), "T,RA,WH", h.testHook},
	}
}

// testHook answers POST R/hooks/{id}/tests (?ref): it queues a test push
// delivery of the commit ref names (the default branch's head when absent)
// and answers 204; an empty repository sends nothing, as in Gitea.
func (s hookDeliveries) testHook(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	ref := q.r.URL.Query().Get("ref")
	if err := s.dispatch.TestDelivery(q.r.Context(), q.repo.Repo, q.caller.User, id, ref); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
