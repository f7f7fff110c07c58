package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestPullReviewAccessMatrix runs every review route (reviews, requested
// reviewers, R/reviewers) against every kind of caller on a public and a
// private repository. Writes that pass the access checks are refused
// further on (no body, not pending, not the reviewer, the poster asked to
// review) except the dismissals, which the administrators may make and
// the undismissals take back.
func TestPullReviewAccessMatrix(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"carol", "reader", "writer", "boss", "rita"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	rita := srv.Client(gitea.SetBasicAuth("rita", userPassword))
	var vars [2]map[string]string
	for vis, repo := range []string{"pub", "priv"} {
		pullMatrixRepo(t, srv, aliceC, repo, vis == 1)
		write := gitea.AccessModeWrite
		if _, err := aliceC.AddCollaborator("alice", repo, "rita", gitea.AddCollaboratorOption{Permission: &write}); err != nil {
			t.Fatalf("add rita: %v", err)
		}
		comment, _, err := rita.CreatePullReview("alice", repo, 1, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateComment, Body: "a note"})
		if err != nil {
			t.Fatalf("comment review: %v", err)
		}
		approve, _, err := rita.CreatePullReview("alice", repo, 1, gitea.CreatePullReviewOptions{State: gitea.ReviewStateApproved})
		if err != nil {
			t.Fatalf("approval: %v", err)
		}
		vars[vis] = map[string]string{"{comment}": itoaTest(comment.ID), "{approve}": itoaTest(approve.ID)}
	}
	headers := map[string]string{
		"outsider":      testserver.Basic("carol", userPassword),
		"reader":        testserver.Basic("reader", userPassword),
		"writer":        testserver.Basic("writer", userPassword),
		"admin":         testserver.Basic("boss", userPassword),
		"public-only":   "token " + srv.CreateToken("alice", userPassword, "public-only", "write:repository"),
		"no-repo-scope": "token " + srv.CreateToken("alice", userPassword, "write:user", "write:issue"),
	}
	held := map[string]string{"no-repo-scope": "write:issue,write:user"}

	read := pullMatrixOutcomes("200/404r", "200/404r", "200/200", "200/200", "200/200", "200/public", "scope/scope")
	// Access passes for whoever reads the pull requests; the use case refuses.
	refused := func(status string) map[string][2]string {
		return pullMatrixOutcomes("401/404r", status+"/404r", status+"/"+status, status+"/"+status, status+"/"+status,
			status+"/public", "scope/scope")
	}
	adminOnly := pullMatrixOutcomes("401/404r", "403/404r", "403/403", "403/403", "200/200", "200/public", "scope/scope")
	routes := []pullMatrixRoute{
		{"GET", "/pulls/1/reviews", nil, read},
		{"GET", "/pulls/1/reviews/{comment}", nil, read},
		{"GET", "/pulls/1/reviews/{comment}/comments", nil, read},
		{"POST", "/pulls/1/reviews", map[string]any{"event": "COMMENT"}, refused("422")},
		{"POST", "/pulls/1/reviews/{comment}", map[string]any{"event": "APPROVED"}, refused("422")},
		{"DELETE", "/pulls/1/reviews/{comment}", nil, refused("403")},
		{"POST", "/pulls/1/reviews/{approve}/dismissals", map[string]any{"message": "set aside"}, adminOnly},
		{"POST", "/pulls/1/reviews/{approve}/undismissals", nil, adminOnly},
		{"POST", "/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"alice"}}, refused("422")},
		{"DELETE", "/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{"writer"}},
			pullMatrixOutcomes("401/404r", "422/404r", "204/204", "204/204", "204/204", "204/public", "scope/scope")},
		{"GET", "/reviewers", nil, pullMatrixOutcomes("401/404r", "200/404r", "200/200", "200/200", "200/200", "200/public", "scope/scope")},
	}
	runPullMatrix(t, srv, headers, held, vars, routes)

	t.Run("the reviews are as they were", func(t *testing.T) {
		is := is.New(t)
		for _, repo := range []string{"pub", "priv"} {
			list, _, err := aliceC.ListPullReviews("alice", repo, 1, gitea.ListPullReviewsOptions{})
			is.NoErr(err)
			is.Equal(len(list), 2)
			is.Equal(list[0].State, gitea.ReviewStateComment)
			is.Equal(list[1].State, gitea.ReviewStateApproved)
			is.True(!list[1].Dismissed)
		}
	})
}
