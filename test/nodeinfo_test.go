package test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// nodeInfoAnswer is NodeInfo 2.1 as Gitea serves it.
type nodeInfoAnswer struct {
	Version  string `json:"version"`
	Software struct {
		Name, Version string
	} `json:"software"`
	Protocols []string `json:"protocols"`
	Services  struct {
		Inbound  []string `json:"inbound"`
		Outbound []string `json:"outbound"`
	} `json:"services"`
	OpenRegistrations *bool `json:"openRegistrations"`
	Usage             struct {
		Users struct {
			Total          int64 `json:"total"`
			ActiveHalfyear int64 `json:"activeHalfyear"`
			ActiveMonth    int64 `json:"activeMonth"`
		} `json:"users"`
		LocalPosts    int64 `json:"localPosts"`
		LocalComments int64 `json:"localComments"`
	} `json:"usage"`
	Metadata map[string]any `json:"metadata"`
}

// TestNodeInfo asks anonymously for the site's NodeInfo with federation on:
// the document and its counts (individuals only, issues, comments), and
// the well-known link to it.
func TestNodeInfo(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.Federation = site.Federation{Enabled: true, ShareUserStatistics: true}
		}))...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, _, err := alice.CreateOrg(gitea.CreateOrgOption{Name: "guild"})
		is.NoErr(err)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "told"})
		issue := createIssueOK(t, alice, "alice", "told", gitea.CreateIssueOption{Title: "one"})
		createIssueOK(t, alice, "alice", "told", gitea.CreateIssueOption{Title: "two"})
		_, _, err = alice.CreateIssueComment("alice", "told", issue.Index, gitea.CreateIssueCommentOption{Body: "hi"})
		is.NoErr(err)

		r := srv.Do("GET", "/nodeinfo", nil)
		is.Equal(r.Status, http.StatusOK)
		var info nodeInfoAnswer
		is.NoErr(json.Unmarshal(r.Body, &info))
		is.Equal(info.Version, "2.1")
		is.Equal(info.Software.Name, "depot")
		is.True(info.Software.Version != "")
		is.Equal(info.Protocols, []string{"activitypub"})
		is.Equal(info.Services.Inbound, []string{})
		is.Equal(info.Services.Outbound, []string{"rss2.0"})
		is.True(info.OpenRegistrations != nil && !*info.OpenRegistrations)
		is.Equal(info.Usage.Users.Total, int64(2)) // admin and alice; the organisation is no user
		is.True(info.Usage.Users.ActiveMonth <= info.Usage.Users.ActiveHalfyear)
		is.True(info.Usage.Users.ActiveHalfyear <= info.Usage.Users.Total)
		is.Equal(info.Usage.LocalPosts, int64(2))
		is.True(info.Usage.LocalComments >= 1)
		is.True(info.Metadata != nil)

		wk := getURL(t, srv.URL+"/.well-known/nodeinfo")
		is.Equal(wk.Status, http.StatusOK)
		var links struct {
			Links []struct{ Href, Rel string } `json:"links"`
		}
		is.NoErr(json.Unmarshal(wk.Body, &links))
		is.Equal(len(links.Links), 1)
		is.Equal(links.Links[0].Href, srv.API+"/nodeinfo")
		is.Equal(links.Links[0].Rel, "http://nodeinfo.diaspora.software/ns/schema/2.1")
	})
}

// TestNodeInfoOff checks the default (federation off: both 404) and a site
// that shares no statistics.
func TestNodeInfoOff(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	is.Equal(srv.Do("GET", "/nodeinfo", nil).Status, http.StatusNotFound)
	is.Equal(getURL(t, srv.URL+"/.well-known/nodeinfo").Status, http.StatusNotFound)

	quiet := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Federation = site.Federation{Enabled: true}
	}))
	r := quiet.Do("GET", "/nodeinfo", nil)
	is.Equal(r.Status, http.StatusOK)
	var info nodeInfoAnswer
	is.NoErr(json.Unmarshal(r.Body, &info))
	is.Equal(info.Usage.Users.Total, int64(0)) // left out
	is.Equal(info.Usage.LocalPosts, int64(0))
}

// getURL GETs a URL outside the API without credentials.
func getURL(t *testing.T, url string) testserver.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return testserver.Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}
