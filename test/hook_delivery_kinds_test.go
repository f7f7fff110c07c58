package test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

func TestHookDeliveryChatKinds(t *testing.T) {
	is := is.New(t)
	_, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	for _, kind := range []gitea.HookType{gitea.HookTypeSlack, gitea.HookTypeDiscord, gitea.HookTypeDingtalk} {
		deliveryHook(t, alice, rec.URL+"/"+string(kind), []string{"push", "create"}, func(o *gitea.CreateHookOption) {
			o.Type = kind
			if kind == gitea.HookTypeSlack {
				o.Config["channel"] = "#dev"
			}
		})
	}
	httpGitOK(t, work, "checkout", "-q", "-b", "topic")
	head := httpGitCommit(t, work, "a.txt", "a\n", "chat push\n\nmore")
	httpGitOK(t, work, "push", "-q", "origin", "topic")

	var slack []struct {
		Text        string `json:"text"`
		Attachments []struct {
			Text string `json:"text"`
		} `json:"attachments"`
	}
	for _, g := range rec.wait(t, "/slack", 2) {
		is.Equal(g.Header.Get("Content-Type"), "application/json")
		var m struct {
			Text        string `json:"text"`
			Attachments []struct {
				Text string `json:"text"`
			} `json:"attachments"`
		}
		is.NoErr(json.Unmarshal(g.Body, &m))
		slack = append(slack, m)
	}
	is.True(strings.Contains(slack[0].Text, "branch created by alice"))
	is.True(strings.Contains(slack[1].Text, "|2 new commits> pushed by alice"))
	is.True(strings.Contains(slack[1].Attachments[0].Text, head[:7]+">: chat push - test"))

	var discord struct {
		Embeds []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Color       int    `json:"color"`
			Author      struct {
				Name string `json:"name"`
			} `json:"author"`
		} `json:"embeds"`
	}
	got := rec.wait(t, "/discord", 2)
	is.NoErr(json.Unmarshal(got[1].Body, &discord))
	is.Equal(len(discord.Embeds), 1)
	is.True(strings.HasPrefix(discord.Embeds[0].Title, "[alice/repo:topic] "))
	is.True(strings.Contains(discord.Embeds[0].Description, "["+head[:7]+"]("))
	is.Equal(discord.Embeds[0].Author.Name, "alice")

	var ding struct {
		MsgType    string `json:"msgtype"`
		ActionCard struct {
			Title     string `json:"title"`
			Text      string `json:"text"`
			SingleURL string `json:"singleURL"`
		} `json:"actionCard"`
	}
	got = rec.wait(t, "/dingtalk", 2)
	is.NoErr(json.Unmarshal(got[0].Body, &ding))
	is.Equal(ding.MsgType, "actionCard")
	is.Equal(ding.ActionCard.Title, "[alice/repo] branch topic created")
	is.NoErr(json.Unmarshal(got[1].Body, &ding))
	is.True(strings.HasPrefix(ding.ActionCard.Title, "[alice/repo:topic] "))
	is.True(strings.Contains(ding.ActionCard.Text, head[:7]))

	// A tag's push has no commits: chat hooks only hear of its creation.
	httpGitOK(t, work, "tag", "v1")
	httpGitOK(t, work, "push", "-q", "origin", "v1")
	got = rec.wait(t, "/discord", 3)
	is.NoErr(json.Unmarshal(got[2].Body, &discord))
	is.Equal(discord.Embeds[0].Title, "[alice/repo] tag v1 created")
}

func TestHookDeliveryTestRoute(t *testing.T) {
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	rec := deliveryNewReceiver(t, nil)
	// Subscribed to create only: the test is sent all the same.
	h := deliveryHook(t, alice, rec.URL+"/test", []string{"create"}, func(o *gitea.CreateHookOption) {
		o.BranchFilter = "nothing-matches"
	})
	path := "/repos/alice/repo/hooks/" + strconv.FormatInt(h.ID, 10) + "/tests"
	main := httpGitRef(t, srv, "alice", "repo", "refs/heads/main")

	r := srv.Do("POST", path, nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusNoContent)
	got := rec.wait(t, "/test", 1)[0]
	is.Equal(got.Header.Get("X-Service-Event"), "push")
	p := deliveryDecode[deliveryPush](t, got.Body)
	is.Equal(p.Ref, "refs/heads/main")
	is.Equal(p.Before, main)
	is.Equal(p.After, main)
	is.Equal(p.TotalCommits, 1)
	is.Equal(len(p.Commits), 1)
	is.Equal(p.HeadCommit.ID, main)
	is.Equal(p.Repo.FullName, "alice/repo")
	is.Equal(p.Pusher.UserName, "alice")

	// ?ref names another commit, and is shown as given.
	httpGitOK(t, work, "checkout", "-q", "-b", "feature")
	feature := httpGitCommit(t, work, "f.txt", "f\n", "feature")
	httpGitOK(t, work, "push", "-q", "origin", "feature")
	r = srv.Do("POST", path+"?ref=refs/heads/feature", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusNoContent)
	p = deliveryDecode[deliveryPush](t, rec.wait(t, "/test", 2)[1].Body)
	is.Equal(p.Ref, "refs/heads/feature")
	is.Equal(p.After, feature)

	// Errors.
	assertAPIError(t, srv.Do("POST", path+"?ref=no-such-ref", nil, basicAs("alice")...), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("POST", "/repos/alice/repo/hooks/999999/tests", nil, basicAs("alice")...), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("POST", "/repos/alice/repo/hooks/x/tests", nil, basicAs("alice")...), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("POST", path, nil, basicAs("bob")...), http.StatusForbidden, "")
	is.Equal(srv.Do("POST", path, nil).Status, http.StatusUnauthorized)
	assertAPIError(t, srv.Do("POST", "/repos/alice/nothing/hooks/1/tests", nil, basicAs("alice")...), http.StatusNotFound, "")
	// The site administrator may test any repository's hook.
	is.Equal(srv.Do("POST", path, nil, adminHeader(srv)...).Status, http.StatusNoContent)
	rec.wait(t, "/test", 3)

	// An empty repository has nothing to send: 204 and no delivery.
	createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
	eh, _, err := alice.CreateRepoHook("alice", "empty", gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
		Config: map[string]string{"url": rec.URL + "/empty", "content_type": "json"}})
	is.NoErr(err)
	r = srv.Do("POST", "/repos/alice/empty/hooks/"+strconv.FormatInt(eh.ID, 10)+"/tests", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusNoContent)
	is.Equal(len(deliveryRecords(t, srv, eh.ID)), 0)
}

func TestHookDeliveryTestRouteWebhooksDisabled(t *testing.T) {
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.EnableWebhooks = false }))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	assertAPIError(t, srv.Do("POST", "/repos/alice/repo/hooks/1/tests", nil, basicAs("alice")...),
		http.StatusForbidden, "webhooks disabled by administrator")
}
