package test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/test/testserver"
)

// hookevRepository is Gitea's RepositoryPayload (the SDK has no type for
// it), made of the SDK's types.
type hookevRepository struct {
	Action       string            `json:"action"`
	Repository   *gitea.Repository `json:"repository"`
	Organization *gitea.User       `json:"organization"`
	Sender       *gitea.User       `json:"sender"`
}

// hookevFork is Gitea's ForkPayload.
type hookevFork struct {
	Forkee *gitea.Repository `json:"forkee"`
	Repo   *gitea.Repository `json:"repository"`
	Sender *gitea.User       `json:"sender"`
}

// hookevOpt is an active native JSON hook of events to url.
func hookevOpt(url string, events ...string) gitea.CreateHookOption {
	return gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true, Events: events,
		Config: map[string]string{"url": url, "content_type": "json"}}
}

// hookevMyHook creates one of the client's user hooks.
func hookevMyHook(t *testing.T, c *gitea.Client, opt gitea.CreateHookOption) *gitea.Hook {
	t.Helper()
	h, _, err := c.CreateMyHook(opt)
	if err != nil {
		t.Fatalf("create user hook: %v", err)
	}
	return h
}

// hookevHeaders checks the headers of a delivery of event signed with secret.
func hookevHeaders(t *testing.T, got deliveryRequest, event, secret string) {
	t.Helper()
	is := is.NewRelaxed(t)
	is.Equal(got.Header.Get("X-Service-Event"), event)
	is.Equal(got.Header.Get("X-Gitea-Event"), event)
	is.Equal(got.Header.Get("X-GitHub-Event"), event)
	is.Equal(got.Header.Get("X-Service-Event-Type"), event)
	is.True(deliveryUUID.MatchString(got.Header.Get("X-Service-Delivery")))
	if secret != "" {
		is.Equal(got.Header.Get("X-Service-Signature"), deliveryHMAC(secret, got.Body))
		is.Equal(got.Header.Get("X-Hub-Signature-256"), "sha256="+deliveryHMAC(secret, got.Body))
	}
}

func TestHookEventsRepository(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)

		mine := hookevOpt(rec.URL+"/user", "repository")
		mine.Config["secret"] = "user-secret"
		userHook := hookevMyHook(t, alice, mine)
		hookevMyHook(t, alice, hookevOpt(rec.URL+"/push-only", "push"))
		inactive := hookevOpt(rec.URL+"/inactive", "repository")
		inactive.Active = false
		hookevMyHook(t, alice, inactive)
		sysOpt := hookevOpt(rec.URL+"/system", "repository")
		r := srv.Do("POST", "/admin/hooks", map[string]any{"type": "gitea", "is_system_webhook": true,
			"active": true, "events": sysOpt.Events, "config": sysOpt.Config}, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusCreated)
		// A default hook's copy in the new repository hears of its creation,
		// as in Gitea, where the copy is made before the event.
		_, _, err := srv.AdminClient().CreateAdminHook(hookevOpt(rec.URL+"/default", "repository"))
		is.NoErr(err)

		repo := createRepo(t, alice, gitea.CreateRepoOption{Name: "r1", Description: "first"})
		for _, path := range []string{"/user", "/system", "/default"} {
			got := rec.wait(t, path, 1)[0]
			secret := ""
			if path == "/user" {
				secret = "user-secret"
			}
			hookevHeaders(t, got, "repository", secret)
			p := deliveryDecode[hookevRepository](t, got.Body)
			is.Equal(p.Action, "created")
			is.Equal(p.Repository.ID, repo.ID)
			is.Equal(p.Repository.FullName, "alice/r1")
			is.Equal(p.Repository.Description, "first")
			is.True(p.Repository.Permissions.Admin) // as its owner sees it
			is.Equal(p.Organization.UserName, "alice")
			is.Equal(p.Sender.UserName, "alice")
		}

		// Deleting it tells the owner's and the system hooks; the
		// repository's own hooks go with it.
		_, err = alice.DeleteRepo("alice", "r1")
		is.NoErr(err)
		for _, path := range []string{"/user", "/system"} {
			got := rec.wait(t, path, 2)[1]
			p := deliveryDecode[hookevRepository](t, got.Body)
			is.Equal(p.Action, "deleted")
			is.Equal(p.Repository.ID, repo.ID)
			is.Equal(p.Repository.FullName, "alice/r1")
			is.Equal(p.Sender.UserName, "alice")
		}
		// The record of the delivery outlives the repository.
		rec2 := deliveryRecorded(t, srv, userHook.ID, 1)
		is.Equal(rec2.Event, hook.EventRepository)
		is.Equal(rec2.RepoID, repo.ID)
		is.True(rec2.Last.Success)

		// Bob's repository reaches the system hooks, not alice's.
		createRepo(t, bob, gitea.CreateRepoOption{Name: "b1"})
		p := deliveryDecode[hookevRepository](t, rec.wait(t, "/system", 3)[2].Body)
		is.Equal(p.Repository.FullName, "bob/b1")
		is.Equal(p.Organization.UserName, "bob")
		is.Equal(p.Sender.UserName, "bob")

		// Nothing else arrived: not to the push hook, the inactive hook,
		// alice's hook for bob's repository, or a copy on deletion.
		is.Equal(len(rec.requests("/push-only")), 0)
		is.Equal(len(rec.requests("/inactive")), 0)
		is.Equal(len(rec.wait(t, "/default", 2)), 2) // r1's and b1's copies
		is.Equal(len(rec.requests("/user")), 2)
	})
}

func TestHookEventsDeletedRepositoryRetried(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := deliveryServer(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	// The receiver fails the deletion's first attempt: the retry comes after
	// the repository's row is gone.
	rec := deliveryNewReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 2 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	h := hookevMyHook(t, alice, hookevOpt(rec.URL+"/user", "repository"))
	createRepo(t, alice, gitea.CreateRepoOption{Name: "gone"})
	rec.wait(t, "/user", 1)
	_, err := alice.DeleteRepo("alice", "gone")
	is.NoErr(err)
	got := rec.wait(t, "/user", 3)
	is.Equal(got[1].Header.Get("X-Service-Delivery"), got[2].Header.Get("X-Service-Delivery"))
	is.Equal(deliveryDecode[hookevRepository](t, got[2].Body).Action, "deleted")
	d := deliveryRecorded(t, srv, h.ID, 2)
	is.True(d.Last.Success)
}

func TestHookEventsFork(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, _ := deliverySetup(t, opts...)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/forks", []string{"fork"})
		deliveryHook(t, alice, rec.URL+"/push", []string{"push"})
		hookevMyHook(t, bob, hookevOpt(rec.URL+"/bob", "repository", "fork"))
		hookevMyHook(t, alice, hookevOpt(rec.URL+"/alice", "repository"))

		fork, _, err := bob.CreateFork("alice", "repo", gitea.CreateForkOption{})
		is.NoErr(err)
		got := rec.wait(t, "/forks", 1)[0]
		hookevHeaders(t, got, "fork", "")
		p := deliveryDecode[hookevFork](t, got.Body)
		is.Equal(p.Forkee.FullName, "alice/repo")
		is.Equal(p.Repo.FullName, "bob/repo")
		is.Equal(p.Repo.ID, fork.ID)
		is.True(p.Repo.Fork)
		is.Equal(p.Sender.UserName, "bob")

		// A fork into a user's account is no repository event (Gitea sends
		// one only for a fork into an organisation), and the fork's owner's
		// hooks hear of no fork of theirs.
		name := "again"
		_, _, err = bob.CreateFork("alice", "repo", gitea.CreateForkOption{Name: &name})
		is.True(err != nil) // one fork per owner
		createRepo(t, alice, gitea.CreateRepoOption{Name: "later"})
		is.Equal(deliveryDecode[hookevRepository](t, rec.wait(t, "/alice", 1)[0].Body).Repository.FullName, "alice/later")
		is.Equal(len(rec.requests("/bob")), 0)
		is.Equal(len(rec.requests("/push")), 0)
		is.Equal(len(rec.requests("/forks")), 1)
	})
}

func TestHookEventsChatKinds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice, _ := deliverySetup(t)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	rec := deliveryNewReceiver(t, nil)
	for _, kind := range []gitea.HookType{gitea.HookTypeSlack, gitea.HookTypeDiscord, gitea.HookTypeDingtalk} {
		o := hookevOpt(rec.URL+"/"+string(kind), "repository")
		o.Type = kind
		hookevMyHook(t, alice, o)
		deliveryHook(t, alice, rec.URL+"/fork-"+string(kind), []string{"fork"}, func(o *gitea.CreateHookOption) {
			o.Type = kind
		})
	}
	createRepo(t, alice, gitea.CreateRepoOption{Name: "chat"})
	_, _, err := bob.CreateFork("alice", "repo", gitea.CreateForkOption{})
	is.NoErr(err)

	var slack struct {
		Text string `json:"text"`
	}
	is.NoErr(json.Unmarshal(rec.wait(t, "/slack", 1)[0].Body, &slack))
	is.Equal(slack.Text, "[<"+srv.URL+"/alice/chat|alice/chat>] Repository created by alice")
	is.NoErr(json.Unmarshal(rec.wait(t, "/fork-slack", 1)[0].Body, &slack))
	is.Equal(slack.Text, "<"+srv.URL+"/alice/repo|alice/repo> is forked to <"+srv.URL+"/bob/repo|bob/repo>")

	var discord struct {
		Embeds []struct {
			Title string `json:"title"`
			URL   string `json:"url"`
			Color int    `json:"color"`
		} `json:"embeds"`
	}
	is.NoErr(json.Unmarshal(rec.wait(t, "/discord", 1)[0].Body, &discord))
	is.Equal(discord.Embeds[0].Title, "[alice/chat] Repository created")
	is.Equal(discord.Embeds[0].URL, srv.URL+"/alice/chat")
	is.NoErr(json.Unmarshal(rec.wait(t, "/fork-discord", 1)[0].Body, &discord))
	is.Equal(discord.Embeds[0].Title, "alice/repo is forked to bob/repo")
	is.Equal(discord.Embeds[0].URL, srv.URL+"/bob/repo")

	var ding struct {
		ActionCard struct {
			Title       string `json:"title"`
			SingleTitle string `json:"singleTitle"`
			SingleURL   string `json:"singleURL"`
		} `json:"actionCard"`
	}
	is.NoErr(json.Unmarshal(rec.wait(t, "/dingtalk", 1)[0].Body, &ding))
	is.Equal(ding.ActionCard.Title, "[alice/chat] Repository created")
	is.NoErr(json.Unmarshal(rec.wait(t, "/fork-dingtalk", 1)[0].Body, &ding))
	is.Equal(ding.ActionCard.Title, "alice/repo is forked to bob/repo")
	is.Equal(ding.ActionCard.SingleTitle, "view forked repo bob/repo")
	is.Equal(ding.ActionCard.SingleURL, srv.URL+"/bob/repo")

	// Deletion: the discord embed turns red.
	_, err = alice.DeleteRepo("alice", "chat")
	is.NoErr(err)
	is.NoErr(json.Unmarshal(rec.wait(t, "/discord", 2)[1].Body, &discord))
	is.Equal(discord.Embeds[0].Title, "[alice/chat] Repository deleted")
	is.Equal(discord.Embeds[0].Color, 0xff3232)
}

// hookevStored reads a hook as the store holds it.
func hookevStored(t *testing.T, srv *testserver.Server, scope hook.Scope, id int64) *hook.Hook {
	t.Helper()
	h, err := srv.App.DB.Stores().Hooks.Get(t.Context(), scope, id)
	if err != nil {
		t.Fatalf("read hook %d: %v", id, err)
	}
	return h
}

func TestHookSecretsAtRest(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, work := deliverySetup(t, opts...)
		rec := deliveryNewReceiver(t, nil)
		const secret, auth = "hookev-s3cret-value", "Bearer hookev-token-123"
		h := deliveryHook(t, alice, rec.URL+"/a", []string{"push"}, func(o *gitea.CreateHookOption) {
			o.Config["secret"] = secret
			o.AuthorizationHeader = auth
		})
		// Answers are as before: the authorization header shown, the secret never.
		is.Equal(h.AuthorizationHeader, auth)
		_, hasSecret := h.Config["secret"]
		is.True(!hasSecret)
		got, _, err := alice.GetRepoHook("alice", "repo", h.ID)
		is.NoErr(err)
		is.Equal(got.AuthorizationHeader, auth)
		list, _, err := alice.ListRepoHooks("alice", "repo", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(list[0].AuthorizationHeader, auth)
		r := srv.Do("GET", "/repos/alice/repo/hooks/"+strconv.FormatInt(h.ID, 10), nil, basicAs("alice")...)
		is.True(!strings.Contains(string(r.Body), secret))

		// The database holds them sealed.
		stored := hookevStored(t, srv, hook.RepoScope(hookevRepoID(t, alice)), h.ID)
		is.True(strings.HasPrefix(stored.Secret, "v1:"))
		is.True(strings.HasPrefix(stored.AuthorizationHeader, "v1:"))
		is.True(!strings.Contains(stored.Secret, secret))
		is.True(!strings.Contains(stored.AuthorizationHeader, "hookev-token-123"))

		// Deliveries open them: signed with the secret, the header sent.
		httpGitCommit(t, work, "a.txt", "a\n", "one")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		d := rec.wait(t, "/a", 1)[0]
		is.Equal(d.Header.Get("X-Service-Signature"), deliveryHMAC(secret, d.Body))
		is.Equal(d.Header.Get("Authorization"), auth)

		// An edit seals the new values; the answer shows the new header.
		const auth2 = "token hookev-second"
		_, err = alice.EditRepoHook("alice", "repo", h.ID, gitea.EditHookOption{
			Config: map[string]string{"secret": "hookev-other-secret"}, AuthorizationHeader: auth2})
		is.NoErr(err)
		stored = hookevStored(t, srv, hook.RepoScope(hookevRepoID(t, alice)), h.ID)
		is.True(strings.HasPrefix(stored.Secret, "v1:") && !strings.Contains(stored.Secret, "hookev-other-secret"))
		is.True(strings.HasPrefix(stored.AuthorizationHeader, "v1:") && !strings.Contains(stored.AuthorizationHeader, "hookev-second"))
		httpGitCommit(t, work, "b.txt", "b\n", "two")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		d = rec.wait(t, "/a", 2)[1]
		is.Equal(d.Header.Get("X-Service-Signature"), deliveryHMAC("hookev-other-secret", d.Body))
		is.Equal(d.Header.Get("Authorization"), auth2)
		// An edit that leaves them out keeps them.
		yes := true
		_, err = alice.EditRepoHook("alice", "repo", h.ID, gitea.EditHookOption{Active: &yes, AuthorizationHeader: auth2})
		is.NoErr(err)
		got, _, err = alice.GetRepoHook("alice", "repo", h.ID)
		is.NoErr(err)
		is.Equal(got.AuthorizationHeader, auth2)

		// Nothing in the data directory holds them in plain text (SQLite's
		// database and its WAL; the delivery records mask the header).
		mirrorNotStored(t, srv, "hookev-other-secret")
		mirrorNotStored(t, srv, "hookev-second")
		mirrorNotStored(t, srv, secret)
	})
}

// hookevRepoID is alice/repo's id.
func hookevRepoID(t *testing.T, alice *gitea.Client) int64 {
	t.Helper()
	r, _, err := alice.GetRepo("alice", "repo")
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

func TestHookSecretsBoundToTheirRow(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	a := deliveryHook(t, alice, rec.URL+"/a", []string{"create"}, func(o *gitea.CreateHookOption) {
		o.Config["secret"] = "secret-of-a"
		o.AuthorizationHeader = "Bearer of-a"
	})
	b := deliveryHook(t, alice, rec.URL+"/b", []string{"create"})
	// Whoever writes the database copies a's sealed values into b.
	scope := hook.RepoScope(hookevRepoID(t, alice))
	sa, sb := hookevStored(t, srv, scope, a.ID), hookevStored(t, srv, scope, b.ID)
	sb.Secret, sb.AuthorizationHeader = sa.Secret, sa.AuthorizationHeader
	is.NoErr(srv.App.DB.Stores().Hooks.Update(t.Context(), sb))

	// b shows no header, and its deliveries are refused rather than signed
	// with a's secret.
	got, _, err := alice.GetRepoHook("alice", "repo", b.ID)
	is.NoErr(err)
	is.Equal(got.AuthorizationHeader, "")
	httpGitOK(t, work, "checkout", "-q", "-b", "topic")
	httpGitOK(t, work, "push", "-q", "origin", "topic")
	rec.wait(t, "/a", 1)
	d := deliveryRecorded(t, srv, b.ID, 1)
	is.True(!d.Last.Success)
	is.True(strings.Contains(d.Last.ResponseBody, "cannot be read"))
	is.Equal(len(rec.requests("/b")), 0)
}

func TestHookSecretsDefaultHookCopies(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)
		def := hookevOpt(rec.URL+"/copy", "create")
		def.Config["secret"] = "default-secret"
		def.AuthorizationHeader = "Bearer default"
		_, _, err := srv.AdminClient().CreateAdminHook(def)
		is.NoErr(err)

		createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
		copies, _, err := alice.ListRepoHooks("alice", "repo", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(len(copies), 1)
		is.Equal(copies[0].AuthorizationHeader, "Bearer default")
		stored := hookevStored(t, srv, hook.RepoScope(hookevRepoID(t, alice)), copies[0].ID)
		is.True(strings.HasPrefix(stored.Secret, "v1:"))

		// The copy's deliveries carry the default's secret and header.
		work := httpGitClone(t, httpGitURL(srv, "alice", "repo", "alice", userPassword))
		httpGitOK(t, work, "checkout", "-q", "-b", "topic")
		httpGitOK(t, work, "push", "-q", "origin", "topic")
		d := rec.wait(t, "/copy", 1)[0]
		is.Equal(d.Header.Get("X-Service-Signature"), deliveryHMAC("default-secret", d.Body))
		is.Equal(d.Header.Get("Authorization"), "Bearer default")
	})
}
