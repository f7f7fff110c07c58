package http

import (
	"net/http"
	"strconv"
	"time"

	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
)

// pullReviews serves the reviews of pull requests (catalogue 4.5): list,
// read, create, submit, delete, their line comments, and dismissals.
type pullReviews struct{ *kernel }

// pullReviewRoutes are the rows of pullReviews.
func (s *kernel) pullReviewRoutes() []route {
	h := pullReviews{s}
	return []route{
		{"GET", R + "/pulls/{index}/reviews", scopes(catRepo), "Pulls,RR(code)", h.listReviews},
		{"POST", R + "/pulls/{index}/reviews", scopes(catRepo), "Pulls,RR(code),T", h.createReview},
		{"GET", R + "/pulls/{index}/reviews/{id}", scopes(catRepo), "Pulls,RR(code)", h.getReview},
		{"POST", R + "/pulls/{index}/reviews/{id}", scopes(catRepo), "Pulls,RR(code),T", h.submitReview},
		{"DELETE", R + "/pulls/{index}/reviews/{id}", scopes(catRepo), "Pulls,RR(code),T", h.deleteReview},
		{"GET", R + "/pulls/{index}/reviews/{id}/comments", scopes(catRepo), "Pulls,RR(code)", h.reviewComments},
		{"POST", R + "/pulls/{index}/reviews/{id}/dismissals", scopes(catRepo), "Pulls,RR(code),T", h.dismissReview},
		{"POST", R + "/pulls/{index}/reviews/{id}/undismissals", scopes(catRepo), "Pulls,RR(code),T", h.undismissReview},
	}
}

// reviewIDs reads {index} and {id}; anything but positive integers names
// nothing (404).
func reviewIDs(q *request) (index, id int64, err error) {
	if index, err = pullIndex(q); err != nil {
		return 0, 0, err
	}
	id, perr := strconv.ParseInt(q.var_("id"), 10, 64)
	if perr != nil || id <= 0 {
		return 0, 0, errs.NotFound("review does not exist")
	}
	return index, id, nil
}

// pullReviewDTO is Gitea's PullReview.
type pullReviewDTO struct {
	ID                int64     `json:"id"`
	Reviewer          *userDTO  `json:"user"`
	ReviewerTeam      *teamDTO  `json:"team"`
	State             string    `json:"state"`
	Body              string    `json:"body"`
	CommitID          string    `json:"commit_id"`
	Stale             bool      `json:"stale"`
	Official          bool      `json:"official"`
	Dismissed         bool      `json:"dismissed"`
	CodeCommentsCount int       `json:"comments_count"`
	Submitted         time.Time `json:"submitted_at"`
	Updated           time.Time `json:"updated_at"`
	HTMLURL           string    `json:"html_url"`
	HTMLPullURL       string    `json:"pull_request_url"`
}

// pullReviewCommentDTO is Gitea's PullReviewComment.
type pullReviewCommentDTO struct {
	ID           int64     `json:"id"`
	Body         string    `json:"body"`
	Poster       *userDTO  `json:"user"`
	Resolver     *userDTO  `json:"resolver"`
	ReviewID     int64     `json:"pull_request_review_id"`
	Created      time.Time `json:"created_at"`
	Updated      time.Time `json:"updated_at"`
	Path         string    `json:"path"`
	CommitID     string    `json:"commit_id"`
	OrigCommitID string    `json:"original_commit_id"`
	DiffHunk     string    `json:"diff_hunk"`
	LineNum      uint64    `json:"position"`
	OldLineNum   uint64    `json:"original_position"`
	HTMLURL      string    `json:"html_url"`
	HTMLPullURL  string    `json:"pull_request_url"`
}

// toReviewDTOs renders a page of reviews of a's repository.
func (s *kernel) toReviewDTOs(a *repos.Access, v *pulls.ReviewView) []pullReviewDTO {
	out := make([]pullReviewDTO, 0, len(v.Reviews))
	pullURL := s.issueWebURL(a.Repo, v.Issue)
	for _, r := range v.Reviews {
		d := pullReviewDTO{ID: r.ID, State: r.State.String(), Body: r.Body, CommitID: r.CommitID, Stale: r.Stale,
			Official: r.Official, Dismissed: r.Dismissed, CodeCommentsCount: v.Counts[r.ID],
			Submitted: r.CreatedAt.UTC(), Updated: r.UpdatedAt.UTC(), HTMLPullURL: pullURL}
		if r.ReviewerID != 0 {
			d.Reviewer = s.commentUser(a.Caller, v.Users, r.ReviewerID)
		}
		if t, ok := v.Teams[r.ReviewerTeamID]; ok {
			td := s.toTeam(t, nil)
			d.ReviewerTeam = &td
		}
		if entry, ok := v.Entries[r.ID]; ok {
			d.HTMLURL = pullURL + "#issuecomment-" + itoa(entry)
		}
		out = append(out, d)
	}
	return out
}

// listReviews answers GET R/pulls/{index}/reviews.
func (s pullReviews) listReviews(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v, err := s.pulls.Reviews().List(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, v.Total)
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v))
	return nil
}

// getReview answers GET R/pulls/{index}/reviews/{id}.
func (s pullReviews) getReview(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	v, err := s.pulls.Reviews().Get(q.r.Context(), q.repo, index, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v)[0])
	return nil
}

// reviewComments answers GET R/pulls/{index}/reviews/{id}/comments.
func (s pullReviews) reviewComments(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	v, err := s.pulls.Reviews().Comments(q.r.Context(), q.repo, index, id)
	if err != nil {
		return err
	}
	pullURL := s.issueWebURL(q.repo.Repo, v.Issue)
	out := make([]pullReviewCommentDTO, 0, len(v.Comments))
	for _, c := range v.Comments {
		d := pullReviewCommentDTO{ID: c.ID, Body: c.Body, Poster: s.commentUser(q.caller, v.Users, c.PosterID),
			ReviewID: v.Review.ID, Created: c.CreatedAt.UTC(), Updated: c.UpdatedAt.UTC(), Path: c.TreePath,
			CommitID: c.CommitSHA, OrigCommitID: c.OldRef, DiffHunk: pull.DiffHunk(c.Patch),
			HTMLURL: pullURL + "#issuecomment-" + itoa(c.ID), HTMLPullURL: pullURL}
		if c.ResolveDoerID != 0 {
			d.Resolver = s.commentUser(q.caller, v.Users, c.ResolveDoerID)
		}
		if line := pull.LineOf(c.TreePath, c.Line); line.Old > 0 {
			d.OldLineNum = uint64(line.Old)
		} else {
			d.LineNum = uint64(line.New)
		}
		out = append(out, d)
	}
	q.json(http.StatusOK, out)
	return nil
}

// createReviewOption is Gitea's CreatePullReviewOptions.
type createReviewOption struct {
	Event    string `json:"event"`
	Body     string `json:"body"`
	CommitID string `json:"commit_id"`
	Comments []struct {
		Path       string `json:"path"`
		Body       string `json:"body"`
		OldLineNum int64  `json:"old_position"`
		NewLineNum int64  `json:"new_position"`
	} `json:"comments"`
}

// createReview answers POST R/pulls/{index}/reviews with 200 and the review.
func (s pullReviews) createReview(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	var in createReviewOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	input := pulls.ReviewInput{Event: in.Event, Body: in.Body, CommitID: in.CommitID}
	for _, c := range in.Comments {
		input.Comments = append(input.Comments, pulls.ReviewCommentInput{Path: c.Path, Body: c.Body,
			OldLineNum: c.OldLineNum, NewLineNum: c.NewLineNum})
	}
	v, err := s.pulls.Reviews().Create(q.r.Context(), q.repo, index, input)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v)[0])
	return nil
}

// submitReviewOption is Gitea's SubmitPullReviewOptions.
type submitReviewOption struct {
	Event string `json:"event"`
	Body  string `json:"body"`
}

// submitReview answers POST R/pulls/{index}/reviews/{id}.
func (s pullReviews) submitReview(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	var in submitReviewOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	v, err := s.pulls.Reviews().Submit(q.r.Context(), q.repo, index, id, in.Event, in.Body)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v)[0])
	return nil
}

// deleteReview answers DELETE R/pulls/{index}/reviews/{id} with 204.
func (s pullReviews) deleteReview(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	return noContent(q, s.pulls.Reviews().Delete(q.r.Context(), q.repo, index, id))
}

// dismissReviewOption is Gitea's DismissPullReviewOptions.
type dismissReviewOption struct {
	Message string `json:"message"`
	Priors  bool   `json:"priors"`
}

// dismissReview answers POST R/pulls/{index}/reviews/{id}/dismissals.
func (s pullReviews) dismissReview(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	var in dismissReviewOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	v, err := s.pulls.Reviews().Dismiss(q.r.Context(), q.repo, index, id, in.Message, in.Priors, true)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v)[0])
	return nil
}

// undismissReview answers POST R/pulls/{index}/reviews/{id}/undismissals.
func (s pullReviews) undismissReview(q *request) error {
	index, id, err := reviewIDs(q)
	if err != nil {
		return err
	}
	v, err := s.pulls.Reviews().Dismiss(q.r.Context(), q.repo, index, id, "", false, false)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toReviewDTOs(q.repo, v)[0])
	return nil
}
