package http

import (
	"net/http"
	"strings"

	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
)

// pullMerges serves merging a pull request and cancelling a scheduled
// merge (catalogue 4.5).
type pullMerges struct{ *kernel }

// pullMergeRoutes are the rows of pullMerges.
func (s *kernel) pullMergeRoutes() []route {
	h := pullMerges{s}
	return []route{
		{"POST", R + "/pulls/{index}/merge", scopes(catRepo), "Pulls,RR(code),T,NA", h.mergePull},
		{"DELETE", R + "/pulls/{index}/merge", scopes(catRepo), "Pulls,RR(code),T,NA", h.cancelAutoMerge},
	}
}

// mergePullOption is Gitea's MergePullRequestForm.
type mergePullOption struct {
	Do                     string `json:"Do"`
	MergeTitleField        string `json:"MergeTitleField"`
	MergeMessageField      string `json:"MergeMessageField"`
	MergeCommitID          string `json:"MergeCommitID"`
	HeadCommitID           string `json:"head_commit_id"`
	ForceMerge             bool   `json:"force_merge"`
	MergeWhenChecksSucceed bool   `json:"merge_when_checks_succeed"`
	DeleteBranchAfterMerge *bool  `json:"delete_branch_after_merge"`
}

// mergePull answers POST R/pulls/{index}/merge: 200 when merged, 201 when
// scheduled for when the checks succeed.
func (s pullMerges) mergePull(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	var in mergePullOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	// Gitea's form binding allows only its styles (422); an empty one
	// means merge.
	switch do := pull.Style(strings.TrimSpace(in.Do)); do {
	case "", pull.StyleMerge, pull.StyleRebase, pull.StyleRebaseMerge, pull.StyleSquash, pull.StyleFastForwardOnly,
		pull.StyleManuallyMerged:
	default:
		return errs.Invalid("Do must be one of merge, rebase, rebase-merge, squash, fast-forward-only, manually-merged", "Do")
	}
	scheduled, err := s.pulls.Merge(q.r.Context(), q.repo, index, pulls.MergeInput{Do: strings.TrimSpace(in.Do),
		Title: in.MergeTitleField, Message: in.MergeMessageField, HeadCommitID: strings.TrimSpace(in.HeadCommitID),
		MergeCommitID: in.MergeCommitID, DeleteBranchAfterMerge: in.DeleteBranchAfterMerge,
		MergeWhenChecksSucceed: in.MergeWhenChecksSucceed, ForceMerge: in.ForceMerge})
	if err != nil {
		return err
	}
	if scheduled {
		q.w.WriteHeader(http.StatusCreated)
		return nil
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// cancelAutoMerge answers DELETE R/pulls/{index}/merge with 204.
func (s pullMerges) cancelAutoMerge(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.pulls.CancelAutoMerge(q.r.Context(), q.repo, index))
}
