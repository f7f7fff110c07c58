package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// releaseRepo makes alice's repository name (one commit on main) with a
// read and a write collaborator, reader and writer, and returns alice's
// client.
func releaseRepo(t *testing.T, srv *testserver.Server, name string, private bool) *gitea.Client {
	t.Helper()
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	newAccount(t, srv, "writer", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default", Private: private})
	for who, mode := range map[string]gitea.AccessMode{"reader": gitea.AccessModeRead, "writer": gitea.AccessModeWrite} {
		if _, err := alice.AddCollaborator("alice", name, who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatalf("add collaborator %s: %v", who, err)
		}
	}
	return alice
}

// releaseTagRef is where tag points in alice/code's bare repository, ""
// when git has no such tag.
func releaseTagRef(t *testing.T, srv *testserver.Server, tag string) string {
	t.Helper()
	return httpGitRef(t, srv, "alice", "code", "refs/tags/"+tag)
}

// releaseTags are the tags of the release list, in its order.
func releaseTags(list []*gitea.Release) string {
	var out []string
	for _, r := range list {
		out = append(out, r.TagName)
	}
	return strings.Join(out, ",")
}

func TestReleaseLifecycle(t *testing.T) {
	t.Parallel()
	backends(t, releaseLifecycle)
}

// releaseLifecycle creates, lists, edits and deletes releases: publishing
// creates the tag at the target with git, a draft creates none and is
// seen by writers only, deleting a release keeps its tag, and a tag under
// a release cannot be deleted.
func releaseLifecycle(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	reader := srv.Client(gitea.SetBasicAuth("reader", userPassword))
	is := is.New(t)
	main := bareRev(t, srv, "alice", "code", "main")

	v1, resp, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1.0", Title: "One", Note: "notes"})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.Equal(releaseTagRef(t, srv, "v1.0"), main) // the tag exists, at the default branch
	is.Equal(v1.Target, "main")
	is.Equal(v1.Title, "One")
	is.Equal(v1.Note, "notes")
	is.Equal(v1.Publisher.UserName, "alice")
	is.Equal(len(v1.Attachments), 0)
	is.True(!v1.IsDraft && !v1.IsPrerelease)
	is.True(!v1.CreatedAt.IsZero())
	is.True(!v1.PublishedAt.IsZero())
	base := srv.URL + "/api/v1/repos/alice/code/releases/" + itoaTest(v1.ID)
	is.Equal(v1.URL, base)
	is.True(strings.HasSuffix(v1.HTMLURL, "/alice/code/releases/tag/v1.0"))
	is.True(strings.HasSuffix(v1.TarURL, "/alice/code/archive/v1.0.tar.gz"))
	is.True(strings.HasSuffix(v1.ZipURL, "/alice/code/archive/v1.0.zip"))
	raw := srv.Do("GET", "/repos/alice/code/releases/"+itoaTest(v1.ID), nil)
	var shape map[string]any
	raw.Decode(t, &shape)
	is.Equal(shape["upload_url"], base+"/assets")
	is.Equal(shape["hide_archive_links"], false)

	rc, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1.1-rc1", Target: main,
		Title: "Candidate", IsPrerelease: true})
	is.NoErr(err)
	is.Equal(releaseTagRef(t, srv, "v1.1-rc1"), main) // at a commit id
	draft, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v2.0", Title: "Two", IsDraft: true})
	is.NoErr(err)
	is.True(draft.IsDraft)
	is.Equal(releaseTagRef(t, srv, "v2.0"), "") // a draft makes no tag
	raw = srv.Do("GET", "/repos/alice/code/releases/"+itoaTest(draft.ID), nil, basicAs("alice")...)
	raw.Decode(t, &shape)
	is.Equal(shape["published_at"], nil) // a draft is not published

	t.Run("ListFilters", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v2.0,v1.1-rc1,v1.0") // newest first, drafts to writers
		is.Equal(resp.Header.Get("X-Total-Count"), "3")
		list, resp, err = reader.ListReleases("alice", "code", gitea.ListReleasesOptions{})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v1.1-rc1,v1.0")
		is.Equal(resp.Header.Get("X-Total-Count"), "2")
		yes, no := true, false
		list, _, err = reader.ListReleases("alice", "code", gitea.ListReleasesOptions{IsDraft: &yes})
		is.NoErr(err)
		is.Equal(len(list), 0)
		list, _, err = alice.ListReleases("alice", "code", gitea.ListReleasesOptions{IsDraft: &yes})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v2.0")
		list, _, err = alice.ListReleases("alice", "code", gitea.ListReleasesOptions{IsPreRelease: &no})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v2.0,v1.0")
		list, _, err = alice.ListReleases("alice", "code", gitea.ListReleasesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v1.1-rc1")
		var found []*gitea.Release
		srv.Do("GET", "/repos/alice/code/releases?q=CANDI", nil).Decode(t, &found)
		is.Equal(releaseTags(found), "v1.1-rc1")
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/releases?draft=maybe", nil), http.StatusBadRequest, "")
	})

	t.Run("GetLatestAndByTag", func(t *testing.T) {
		is := is.New(t)
		latest, _, err := reader.GetLatestRelease("alice", "code")
		is.NoErr(err)
		is.Equal(latest.ID, v1.ID) // the pre-release and the draft are passed over
		got, _, err := reader.GetReleaseByTag("alice", "code", "v1.1-rc1")
		is.NoErr(err)
		is.Equal(got.ID, rc.ID)
		got, _, err = alice.GetReleaseByTag("alice", "code", "v2.0")
		is.NoErr(err)
		is.Equal(got.ID, draft.ID)
		_, resp, _ := reader.GetReleaseByTag("alice", "code", "v2.0")
		is.Equal(resp.StatusCode, http.StatusNotFound) // drafts are hidden from readers
		_, resp, _ = reader.GetRelease("alice", "code", draft.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/releases/999999", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/releases/x", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/releases/tags/v9", nil), http.StatusNotFound, "")

		// A tag with a slash, escaped in the path.
		nested, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "rel/v1", Title: "Nested", IsDraft: true})
		is.NoErr(err)
		is.True(strings.HasSuffix(nested.HTMLURL, "/releases/tag/rel/v1"))
		got, _, err = alice.GetReleaseByTag("alice", "code", "rel/v1")
		is.NoErr(err)
		is.Equal(got.ID, nested.ID)
		resp, err = alice.DeleteReleaseByTag("alice", "code", "rel/v1")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
	})

	t.Run("BadInput", func(t *testing.T) {
		path := "/repos/alice/code/releases"
		as := basicAs("alice")
		assertAPIError(t, srv.Do("POST", path, map[string]any{"tag_name": "v1.0", "name": "again"}, as...),
			http.StatusConflict, "release with tag v1.0 already exists")
		for _, tag := range []string{"", "bad..name", "a b", "-lead", "x.lock", strings.Repeat("v", 101)} {
			assertInvalid(t, srv.Do("POST", path, map[string]any{"tag_name": tag, "name": "x"}, as...), "TagName")
		}
		assertAPIError(t, srv.Do("POST", path, map[string]any{"tag_name": "v3", "target_commitish": "nowhere"}, as...),
			http.StatusNotFound, `target "nowhere" not found`)
		is.Equal(releaseTagRef(t, srv, "v3"), "")
		assertAPIError(t, srv.Do("POST", path, "{", as...), http.StatusBadRequest, "")
		assertAPIError(t, srv.Do("PATCH", path+"/"+itoaTest(v1.ID), "{", as...), http.StatusBadRequest, "")
		assertInvalid(t, srv.Do("PATCH", path+"/"+itoaTest(v1.ID), map[string]any{"tag_name": "bad..name"}, as...), "TagName")
		assertAPIError(t, srv.Do("PATCH", path+"/"+itoaTest(v1.ID), map[string]any{"tag_name": "v1.1-rc1"}, as...),
			http.StatusConflict, "release with tag v1.1-rc1 already exists")

		createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
		assertAPIError(t, srv.Do("POST", "/repos/alice/empty/releases", map[string]any{"tag_name": "v1"}, as...),
			http.StatusUnprocessableEntity, "repo is empty")
	})

	t.Run("EditPublishesADraft", func(t *testing.T) {
		is := is.New(t)
		no := false
		e, _, err := alice.EditRelease("alice", "code", draft.ID, gitea.EditReleaseOption{Note: "ready", IsDraft: &no})
		is.NoErr(err)
		is.True(!e.IsDraft)
		is.Equal(e.Title, "Two") // kept
		is.Equal(e.Note, "ready")
		is.True(!e.PublishedAt.IsZero())
		is.Equal(releaseTagRef(t, srv, "v2.0"), main) // publishing made the tag
		latest, _, err := reader.GetLatestRelease("alice", "code")
		is.NoErr(err)
		is.Equal(latest.ID, draft.ID)
		repo, _, err := alice.GetRepo("alice", "code")
		is.NoErr(err)
		is.Equal(repo.Releases, 3) // the counter holds published releases
	})

	t.Run("DeleteKeepsTheTag", func(t *testing.T) {
		is := is.New(t)
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/code/tags/v1.0", nil, basicAs("alice")...),
			http.StatusConflict, "a tag attached to a release cannot be deleted directly")
		is.Equal(releaseTagRef(t, srv, "v1.0"), main)
		resp, err := alice.DeleteRelease("alice", "code", v1.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(releaseTagRef(t, srv, "v1.0"), main)
		_, resp, _ = alice.GetRelease("alice", "code", v1.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, err = alice.DeleteTag("alice", "code", "v1.0") // no release now
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(releaseTagRef(t, srv, "v1.0"), "")

		resp, err = alice.DeleteReleaseByTag("alice", "code", "v2.0")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(releaseTagRef(t, srv, "v2.0"), main)
		_, resp, _ = alice.GetReleaseByTag("alice", "code", "v2.0")
		is.Equal(resp.StatusCode, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/code/releases/tags/v2.0", nil, basicAs("alice")...),
			http.StatusNotFound, "release does not exist")
		list, _, err := alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
		is.NoErr(err)
		is.Equal(releaseTags(list), "v1.1-rc1")
	})
}

// TestReleaseGitPushedTags pushes and deletes tags with the git CLI: the
// release list shows releases only and keeps working, a release of a
// pushed tag names the tag's commit (its target is not resolved), and a
// release whose tag a push deleted turns into a draft, as in Gitea, which
// publishing again gives a new tag at its target.
func TestReleaseGitPushedTags(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice := releaseRepo(t, srv, "code", false)
	reader := srv.Client(gitea.SetBasicAuth("reader", userPassword))
	is := is.New(t)
	first := bareRev(t, srv, "alice", "code", "main")
	work := httpGitClone(t, httpGitURL(srv, "alice", "code", "alice", userPassword))
	httpGitOK(t, work, "tag", "pushed")
	httpGitOK(t, work, "commit", "-q", "--allow-empty", "-m", "second")
	httpGitOK(t, work, "tag", "other")
	httpGitOK(t, work, "push", "-q", "origin", "main", "pushed", "other")
	head := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))

	list, _, err := alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(len(list), 0) // tags alone are no releases

	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "pushed", Title: "Pushed",
		Target: "does-not-matter"}) // the tag exists: the target is not resolved
	is.NoErr(err)
	is.Equal(releaseTagRef(t, srv, "pushed"), first)
	repo, _, err := alice.GetRepo("alice", "code")
	is.NoErr(err)
	is.Equal(repo.Releases, 1)

	httpGitOK(t, work, "push", "-q", "origin", ":refs/tags/pushed", ":refs/tags/other")
	is.Equal(releaseTagRef(t, srv, "pushed"), "")
	list, _, err = alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(releaseTags(list), "pushed")
	is.Equal(list[0].ID, rel.ID)
	is.True(list[0].IsDraft) // its tag is gone
	list, _, err = reader.ListReleases("alice", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(len(list), 0)
	repo, _, err = alice.GetRepo("alice", "code")
	is.NoErr(err)
	is.Equal(repo.Releases, 0)

	no := false
	_, resp, _ := alice.EditRelease("alice", "code", rel.ID, gitea.EditReleaseOption{IsDraft: &no})
	is.Equal(resp.StatusCode, http.StatusNotFound) // its target does not exist
	pub, _, err := alice.EditRelease("alice", "code", rel.ID, gitea.EditReleaseOption{Target: "main", IsDraft: &no})
	is.NoErr(err)
	is.True(!pub.IsDraft)
	is.Equal(releaseTagRef(t, srv, "pushed"), head)
}

// TestReleaseTagProtection creates releases under a tag protection rule
// for v*: a writer outside the allowlist may not publish a release that
// makes a protected tag (nothing is written) but may keep a draft, and an
// allowed account publishes it.
func TestReleaseTagProtection(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice := tagProtOrgRepo(t, srv)
	is := is.New(t)
	_, _, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "v*", WhitelistUsernames: []string{"trusted"}})
	is.NoErr(err)
	create := func(who string, body map[string]any) testserver.Response {
		return srv.Do("POST", "/repos/acme/code/releases", body, basicAs(who)...)
	}
	ref := func(tag string) string { return httpGitRef(t, srv, "acme", "code", "refs/tags/"+tag) }

	assertAPIError(t, create("writer", map[string]any{"tag_name": "v1.0", "name": "One"}),
		http.StatusUnprocessableEntity, "user not allowed to create protected tag")
	is.Equal(ref("v1.0"), "")
	list, _, err := alice.ListReleases("acme", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(len(list), 0)

	r := create("writer", map[string]any{"tag_name": "v1.0", "name": "One", "draft": true})
	is.Equal(r.Status, http.StatusCreated) // a draft makes no tag
	var d gitea.Release
	r.Decode(t, &d)
	writer := srv.Client(gitea.SetBasicAuth("writer", userPassword))
	no := false
	_, resp, _ := writer.EditRelease("acme", "code", d.ID, gitea.EditReleaseOption{IsDraft: &no})
	is.Equal(resp.StatusCode, http.StatusUnprocessableEntity) // publishing would make the tag
	is.Equal(ref("v1.0"), "")

	trusted := srv.Client(gitea.SetBasicAuth("trusted", userPassword))
	pub, _, err := trusted.EditRelease("acme", "code", d.ID, gitea.EditReleaseOption{IsDraft: &no})
	is.NoErr(err)
	is.True(!pub.IsDraft)
	is.True(ref("v1.0") != "")
	is.Equal(create("writer", map[string]any{"tag_name": "other", "name": "Other"}).Status, http.StatusCreated)

	// The release holds the tag before the rules are asked.
	assertAPIError(t, srv.Do("DELETE", "/repos/acme/code/tags/v1.0", nil, basicAs("trusted")...),
		http.StatusConflict, "a tag attached to a release cannot be deleted directly")
}

// TestReleaseAccessMatrix runs every release and release asset route
// against every kind of caller on a public and a private repository.
// Writes that pass the access checks are refused further on (a tag name
// git refuses, an upload without a name, an absent release or asset), so
// every actor meets the same state.
func TestReleaseAccessMatrix(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"carol", "reader", "writer", "boss"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	var vars [2]map[string]string
	for vis, repo := range []string{"pub", "priv"} {
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: repo, AutoInit: true, Readme: "Default", Private: vis == 1})
		for who, mode := range map[string]gitea.AccessMode{
			"reader": gitea.AccessModeRead, "writer": gitea.AccessModeWrite, "boss": gitea.AccessModeAdmin,
		} {
			if _, err := aliceC.AddCollaborator("alice", repo, who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
				t.Fatalf("add collaborator %s to %s: %v", who, repo, err)
			}
		}
		rel, _, err := aliceC.CreateRelease("alice", repo, gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
		if err != nil {
			t.Fatalf("release: %v", err)
		}
		draft, _, err := aliceC.CreateRelease("alice", repo, gitea.CreateReleaseOption{TagName: "v2", Title: "Two", IsDraft: true})
		if err != nil {
			t.Fatalf("draft: %v", err)
		}
		asset, _, err := aliceC.CreateReleaseAttachment("alice", repo, rel.ID, strings.NewReader("bytes"), "f.txt")
		if err != nil {
			t.Fatalf("asset: %v", err)
		}
		vars[vis] = map[string]string{"{id}": itoaTest(rel.ID), "{draft}": itoaTest(draft.ID), "{asset}": itoaTest(asset.ID)}
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
	writerOnly := func(status string) map[string][2]string {
		return pullMatrixOutcomes("404/404r", "404/404r", "404/404", status+"/"+status, status+"/"+status,
			status+"/public", "scope/scope")
	}
	refused := func(status string) map[string][2]string {
		return pullMatrixOutcomes("401/404r", "403/404r", "403/403", status+"/"+status, status+"/"+status,
			status+"/public", "scope/scope")
	}
	bad := map[string]any{"tag_name": "bad..name", "name": "x"}
	routes := []pullMatrixRoute{
		{"GET", "/releases", nil, read},
		{"GET", "/releases/latest", nil, read},
		{"GET", "/releases/{id}", nil, read},
		{"GET", "/releases/tags/v1", nil, read},
		{"GET", "/releases/{draft}", nil, writerOnly("200")},
		{"GET", "/releases/tags/v2", nil, writerOnly("200")},
		{"POST", "/releases", bad, refused("422")},
		{"PATCH", "/releases/{id}", bad, refused("422")},
		{"DELETE", "/releases/999999", nil, refused("404")},
		{"DELETE", "/releases/tags/nope", nil, refused("404")},
		{"GET", "/releases/{id}/assets", nil, read},
		{"GET", "/releases/{id}/assets/{asset}", nil, read},
		{"GET", "/releases/{draft}/assets", nil, writerOnly("200")},
		{"POST", "/releases/{id}/assets", "no name", refused("400")},
		{"PATCH", "/releases/{id}/assets/{asset}", map[string]any{"name": "../"}, refused("422")},
		{"DELETE", "/releases/{id}/assets/999999", nil, refused("404")},
	}
	runPullMatrix(t, srv, headers, held, vars, routes)

	t.Run("the releases are as they were", func(t *testing.T) {
		is := is.New(t)
		for _, repo := range []string{"pub", "priv"} {
			list, _, err := aliceC.ListReleases("alice", repo, gitea.ListReleasesOptions{})
			is.NoErr(err)
			is.Equal(releaseTags(list), "v2,v1")
		}
	})
}

// TestReleasePublisherDeleted deletes the account that published a
// release: the release stays, authored by Gitea's ghost.
func TestReleasePublisherDeleted(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice := releaseRepo(t, srv, "code", false)
	is := is.New(t)
	writer := srv.Client(gitea.SetBasicAuth("writer", userPassword))
	rel, _, err := writer.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	is.Equal(rel.Publisher.UserName, "writer")
	_, err = srv.AdminClient().AdminDeleteUser("writer")
	is.NoErr(err)
	list, _, err := alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(len(list), 1)
	is.Equal(list[0].Publisher.UserName, "Ghost")
	is.Equal(list[0].Publisher.ID, int64(-1))
}
