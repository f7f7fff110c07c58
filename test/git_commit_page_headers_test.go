package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestCommitPageHeaders checks the page headers of GET R/commits as the
// SDK's ListRepoCommits receives them. Gitea 1.27's GetAllCommits
// (routers/api/v1/repo/commits.go) sets, "kept for backwards
// compatibility", X-Page, X-PerPage, X-Total, X-PageCount and X-HasMore
// ("listOptions.Page < pageCount") and appends all five to
// Access-Control-Expose-Headers, CORS or not. Of the listings Depot serves,
// no other sets them in Gitea (its pull request commits and files do; the
// status, compare and tree routes send only X-Total-Count and Link).
func TestCommitPageHeaders(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	srv := r.srv
	want := r.log(t, "main")
	total := len(want)
	pages := (total + 1) / 2

	for _, page := range []int{1, 2, pages, pages + 5} {
		t.Run("page "+strconv.Itoa(page), func(t *testing.T) {
			is := is.New(t)
			_, resp, err := alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{
				ListOptions: gitea.ListOptions{Page: page, PageSize: 2}, Stat: false, Verification: false, Files: false})
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusOK)
			h := resp.Header
			is.Equal(h.Get("X-Page"), strconv.Itoa(page))
			is.Equal(h.Get("X-PerPage"), "2")
			is.Equal(h.Get("X-Total"), strconv.Itoa(total))
			is.Equal(h.Get("X-Total-Count"), strconv.Itoa(total))
			is.Equal(h.Get("X-PageCount"), strconv.Itoa(pages))
			is.Equal(h.Get("X-HasMore"), strconv.FormatBool(page < pages))
			exposed := h.Get("Access-Control-Expose-Headers")
			for _, name := range []string{"X-Page", "X-PerPage", "X-Total", "X-PageCount", "X-HasMore"} {
				is.True(strings.Contains(exposed, name)) // exposed without a CORS request
			}
		})
	}

	t.Run("status listing keeps Gitea's two headers", func(t *testing.T) {
		is := is.New(t)
		resp := srv.Do("GET", "/repos/alice/hist/commits/main/statuses", nil)
		is.Equal(resp.Status, http.StatusOK)
		is.Equal(resp.Header.Get("X-Page"), "")
		is.Equal(resp.Header.Get("X-Total-Count"), "0")
	})
}
