package http

import (
	"net/http"

	"github.com/depothq/depot/app/pulls"
)

// pullReviewRequests serves asking users and teams to review a pull
// request, and withdrawing the request (catalogue 4.5).
type pullReviewRequests struct{ *kernel }

// pullReviewRequestRoutes are the rows of pullReviewRequests.
func (s *kernel) pullReviewRequestRoutes() []route {
	h := pullReviewRequests{s}
	return []route{
		{"POST", R + "/pulls/{index}/requested_reviewers", scopes(catRepo), "Pulls,RR(code),T", h.addRequests},
		{"DELETE", R + "/pulls/{index}/requested_reviewers", scopes(catRepo), "Pulls,RR(code),T", h.removeRequests},
	}
}

// reviewRequestOption is Gitea's PullReviewRequestOptions.
type reviewRequestOption struct {
	Reviewers     []string `json:"reviewers"`
	TeamReviewers []string `json:"team_reviewers"`
}

// change decodes the body and adds or removes the requests.
func (s pullReviewRequests) change(q *request, add bool) (*pulls.ReviewView, error) {
	index, err := pullIndex(q)
	if err != nil {
		return nil, err
	}
	var in reviewRequestOption
	if err := decodeJSON(q.r, &in); err != nil {
		return nil, err
	}
	return s.pulls.ReviewRequests().Change(q.r.Context(), q.repo, index,
		pulls.ReviewRequestInput{Reviewers: in.Reviewers, TeamReviewers: in.TeamReviewers}, add)
}

// addRequests answers POST R/pulls/{index}/requested_reviewers with 201
// and the requests made (those already standing are not repeated).
func (s pullReviewRequests) addRequests(q *request) error {
	v, err := s.change(q, true)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toReviewDTOs(q.repo, v))
	return nil
}

// removeRequests answers DELETE R/pulls/{index}/requested_reviewers with 204.
func (s pullReviewRequests) removeRequests(q *request) error {
	_, err := s.change(q, false)
	return noContent(q, err)
}
