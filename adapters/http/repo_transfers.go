package http

import (
	"net/http"
)

// repoTransfers serves the transfers of repositories to another owner (catalogue 4.5).
type repoTransfers struct{ *kernel }

// repoTransferRoutes are the rows of repoTransfers.
func (s *kernel) repoTransferRoutes() []route {
	h := repoTransfers{s}
	return []route{
		{"POST", R + "/transfer", scopes(catRepo), "T,RO", h.transferRepo},
		{"POST", R + "/transfer/accept", scopes(catRepo), "T", h.acceptTransfer},
		{"POST", R + "/transfer/reject", scopes(catRepo), "T", h.rejectTransfer},
	}
}

// transferRepo answers POST R/transfer: 202 when done, 201 when it waits for the recipient.
func (s repoTransfers) transferRepo(q *request) error {
	var b struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	res, err := s.repos.Transfers().Start(q.r.Context(), q.repo, b.NewOwner)
	if err != nil {
		return err
	}
	status := http.StatusAccepted
	if res.Pending {
		status = http.StatusCreated
	}
	return s.answerRepo(q, status, res.Repo.ID)
}

// acceptTransfer answers POST R/transfer/accept with 202.
func (s repoTransfers) acceptTransfer(q *request) error {
	r, err := s.repos.Transfers().Accept(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusAccepted, r.ID)
}

// rejectTransfer answers POST R/transfer/reject with 200.
func (s repoTransfers) rejectTransfer(q *request) error {
	r, err := s.repos.Transfers().Reject(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	a := *q.repo
	a.Repo = r
	d, err := s.renderRepo(q.r.Context(), &a)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, d)
	return nil
}
