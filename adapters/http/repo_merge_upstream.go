package http

import (
	"net/http"

	"github.com/depothq/depot/app/pulls"
)

// repoMergeUpstream serves bringing a fork's branch up to date with its
// parent's (catalogue 3).
type repoMergeUpstream struct{ *kernel }

// repoMergeUpstreamRoutes are the rows of repoMergeUpstream.
func (s *kernel) repoMergeUpstreamRoutes() []route {
	h := repoMergeUpstream{s}
	return []route{
		{"POST", R + "/merge-upstream", scopes(catRepo), "T,NA,RW(code)", h.mergeUpstream},
	}
}

// mergeUpstreamRequest is Gitea's MergeUpstreamRequest.
type mergeUpstreamRequest struct {
	Branch string `json:"branch"`
	FFOnly bool   `json:"ff_only"`
}

// mergeUpstreamResponse is Gitea's MergeUpstreamResponse.
type mergeUpstreamResponse struct {
	MergeType string `json:"merge_type"`
}

// mergeUpstream answers POST R/merge-upstream with how the branch moved.
func (s repoMergeUpstream) mergeUpstream(q *request) error {
	var in mergeUpstreamRequest
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	kind, err := s.pulls.MergeUpstream(q.r.Context(), q.repo, pulls.MergeUpstreamInput{Branch: in.Branch, FFOnly: in.FFOnly})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, mergeUpstreamResponse{MergeType: kind})
	return nil
}
