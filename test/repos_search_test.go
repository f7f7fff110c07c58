package test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// repoSearchEnvelope is the raw shape of GET /repos/search.
type repoSearchEnvelope struct {
	Data []*gitea.Repository `json:"data"`
	OK   bool                `json:"ok"`
}

// fullNames lists the full names of repositories, in order.
func fullNames(list []*gitea.Repository) []string {
	out := make([]string, 0, len(list))
	for _, r := range list {
		out = append(out, r.FullName)
	}
	return out
}

// sortedCopy returns a sorted copy of names.
func sortedCopy(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return out
}

// searchRepoNames runs GET /repos/search?query with header and returns the full
// names found, in order, checking the envelope and X-Total-Count.
func searchRepoNames(t *testing.T, srv *testserver.Server, query string, header ...string) []string {
	t.Helper()
	r := srv.Do("GET", "/repos/search?"+query, nil, header...)
	if r.Status != http.StatusOK {
		t.Fatalf("search %q: status %d (body %s)", query, r.Status, r.Body)
	}
	var env repoSearchEnvelope
	r.Decode(t, &env)
	if !env.OK {
		t.Fatalf("search %q: ok is false", query)
	}
	if env.Data == nil {
		t.Fatalf("search %q: data is null: %s", query, r.Body)
	}
	names := fullNames(env.Data)
	if total := r.Header.Get("X-Total-Count"); total != strconv.Itoa(len(names)) && r.Header.Get("Link") == "" {
		t.Fatalf("search %q: X-Total-Count %s for %d results on one page", query, total, len(names))
	}
	return names
}

// wantNames compares names with want, in order.
func wantNames(t *testing.T, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// wantSet compares names with want, in any order.
func wantSet(t *testing.T, got []string, want ...string) {
	t.Helper()
	wantNames(t, sortedCopy(got), sortedCopy(want)...)
}

// searchWorld is the set of accounts and repositories the search tests share.
type searchWorld struct {
	srv                *testserver.Server
	alice, bob, carol  *gitea.User
	aliceC, bobC, carC *gitea.Client
}

// newSearchWorld makes:
//
//	alice (public): alpha-one (auto_init), alpha-two (private), beta-tmpl (template),
//	                gamma-arch (archived), delta
//	bob (public):   alpha-bob, bob-secret (private; carol reads it)
//	carol (public): alpha-one (fork of alice/alpha-one)
//	dave (public):  nothing
//	limo (limited): lim-pub; privo (private): priv-pub
//
// Stars: alice/delta ×2, alice/alpha-one ×1.
func newSearchWorld(t *testing.T, opts ...testserver.Option) *searchWorld {
	t.Helper()
	srv := testserver.Start(t, opts...)
	w := &searchWorld{srv: srv}
	w.alice, w.aliceC = newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	w.bob, w.bobC = newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	w.carol, w.carC = newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	newAccount(t, srv, "dave", gitea.VisibleTypePublic)
	_, limC := newAccount(t, srv, "limo", gitea.VisibleTypeLimited)
	_, privC := newAccount(t, srv, "privo", gitea.VisibleTypePrivate)

	createRepo(t, w.aliceC, gitea.CreateRepoOption{Name: "alpha-one", AutoInit: true, Description: "the first of all"})
	createRepo(t, w.aliceC, gitea.CreateRepoOption{Name: "alpha-two", Private: true})
	createRepo(t, w.aliceC, gitea.CreateRepoOption{Name: "beta-tmpl", Template: true})
	createRepo(t, w.aliceC, gitea.CreateRepoOption{Name: "gamma-arch"})
	createRepo(t, w.aliceC, gitea.CreateRepoOption{Name: "delta"})
	createRepo(t, w.bobC, gitea.CreateRepoOption{Name: "alpha-bob"})
	createRepo(t, w.bobC, gitea.CreateRepoOption{Name: "bob-secret", Private: true})
	createRepo(t, limC, gitea.CreateRepoOption{Name: "lim-pub"})
	createRepo(t, privC, gitea.CreateRepoOption{Name: "priv-pub"})
	addCollaborator(t, srv, "bob", "bob-secret", "carol", "read")
	if _, _, err := w.carC.CreateFork("alice", "alpha-one", gitea.CreateForkOption{}); err != nil {
		t.Fatalf("fork: %v", err)
	}
	yes := true
	if _, _, err := w.aliceC.EditRepo("alice", "gamma-arch", gitea.EditRepoOption{Archived: &yes}); err != nil {
		t.Fatalf("archive: %v", err)
	}
	for _, s := range []struct{ who, repo string }{{"bob", "alice/delta"}, {"carol", "alice/delta"}, {"bob", "alice/alpha-one"}} {
		if r := srv.Do("PUT", "/user/starred/"+s.repo, nil, basicAs(s.who)...); r.Status != http.StatusNoContent {
			t.Fatalf("star %s as %s: %d %s", s.repo, s.who, r.Status, r.Body)
		}
	}
	return w
}

// publicNames are the repositories an anonymous caller may find.
var publicNames = []string{
	"alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch", "bob/alpha-bob", "carol/alpha-one",
}

func TestLifeSearch(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	srv := w.srv
	uid := func(u *gitea.User) string { return strconv.FormatInt(u.ID, 10) }

	t.Run("envelope", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/repos/search?q=delta", nil)
		is.Equal(r.Status, http.StatusOK)
		var raw map[string]any
		r.Decode(t, &raw)
		is.Equal(raw["ok"], true)
		data, ok := raw["data"].([]any)
		is.True(ok)
		is.Equal(len(data), 1)
		is.Equal(r.Header.Get("X-Total-Count"), "1")

		// nothing found is an empty array, not null
		r = srv.Do("GET", "/repos/search?q=no-such-thing", nil)
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.Contains(string(r.Body), `"data":[]`))
		is.Equal(r.Header.Get("X-Total-Count"), "0")

		// the SDK decodes the same
		list, _, err := srv.Client().SearchRepos(gitea.SearchRepoOptions{Keyword: "delta"})
		is.NoErr(err)
		is.Equal(fullNames(list), []string{"alice/delta"})
		is.Equal(list[0].Stars, 2)
		is.True(list[0].Owner != nil)
		is.Equal(list[0].Owner.UserName, "alice")
		is.True(list[0].Permissions != nil)
		is.Equal(*list[0].Permissions, permissionOf(false, false, true))
	})

	t.Run("keyword", func(t *testing.T) {
		wantSet(t, searchRepoNames(t, srv, "q=alpha"), "alice/alpha-one", "bob/alpha-bob", "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "q=ALPHA"), "alice/alpha-one", "bob/alpha-bob", "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "q=pha-o"), "alice/alpha-one", "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "q=alpha", basicAs("alice")...),
			"alice/alpha-one", "alice/alpha-two", "bob/alpha-bob", "carol/alpha-one")
		wantNames(t, searchRepoNames(t, srv, "q=%25"))
		wantNames(t, searchRepoNames(t, srv, "q=_"))
		// the description only with includeDesc
		wantNames(t, searchRepoNames(t, srv, "q=first+of"))
		// (a fork keeps its parent's description)
		wantSet(t, searchRepoNames(t, srv, "q=first+of&includeDesc=true"), "alice/alpha-one", "carol/alpha-one")
		// no keyword: everything visible
		wantSet(t, searchRepoNames(t, srv, ""), publicNames...)
	})

	t.Run("keyword pieces, topics and owner/name", func(t *testing.T) {
		// a comma separates pieces, any of which may match
		wantSet(t, searchRepoNames(t, srv, "q=delta,bob"), "alice/delta", "bob/alpha-bob")
		wantSet(t, searchRepoNames(t, srv, "q=delta,,"), "alice/delta")
		// a topic containing the keyword matches too; topic=true wants it whole
		if r := srv.Do("PUT", "/repos/alice/beta-tmpl/topics", map[string]any{"topics": []string{"searchable-thing"}},
			adminHeader(srv)...); r.Status != http.StatusNoContent {
			t.Fatalf("set topics: %d %s", r.Status, r.Body)
		}
		wantSet(t, searchRepoNames(t, srv, "q=searchable"), "alice/beta-tmpl")
		wantSet(t, searchRepoNames(t, srv, "q=searchable-thing&topic=true"), "alice/beta-tmpl")
		wantNames(t, searchRepoNames(t, srv, "q=searchable&topic=true"))
		// "owner/name" matches by owner and name
		wantSet(t, searchRepoNames(t, srv, "q=alice/alpha"), "alice/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "q=alice/alpha", basicAs("alice")...), "alice/alpha-one", "alice/alpha-two")
		wantSet(t, searchRepoNames(t, srv, "q=ice/pha-o", adminHeader(srv)...), "alice/alpha-one")
		wantNames(t, searchRepoNames(t, srv, "q=bob/alpha-one"))
	})

	t.Run("visibility", func(t *testing.T) {
		is := is.New(t)
		wantSet(t, searchRepoNames(t, srv, "limit=50"), publicNames...)
		// another user also sees the limited owner's public repository
		wantSet(t, searchRepoNames(t, srv, "limit=50", basicAs("dave")...), slices.Concat(publicNames, []string{"limo/lim-pub"})...)
		// owners see their private ones
		wantSet(t, searchRepoNames(t, srv, "limit=50", basicAs("alice")...), slices.Concat(publicNames, []string{"limo/lim-pub", "alice/alpha-two"})...)
		wantSet(t, searchRepoNames(t, srv, "limit=50", basicAs("privo")...), slices.Concat(publicNames, []string{"limo/lim-pub", "privo/priv-pub"})...)
		// collaborators see theirs
		wantSet(t, searchRepoNames(t, srv, "limit=50", basicAs("carol")...), slices.Concat(publicNames, []string{"limo/lim-pub", "bob/bob-secret"})...)
		// admins see everything
		all := slices.Concat(publicNames, []string{"limo/lim-pub", "privo/priv-pub", "alice/alpha-two", "bob/bob-secret"})
		wantSet(t, searchRepoNames(t, srv, "limit=50", adminHeader(srv)...), all...)
		list, _, err := srv.AdminClient().SearchRepos(gitea.SearchRepoOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
		is.NoErr(err)
		wantSet(t, fullNames(list), all...)
		// a public-only token sees public repositories of public owners only, even its owner's
		wantSet(t, searchRepoNames(t, srv, "limit=50", tokenHeader(srv, "alice", "public-only", "read:repository")...), publicNames...)
		wantSet(t, searchRepoNames(t, srv, "limit=50", "Authorization", "token "+srv.CreateToken("admin", srv.AdminPassword, "public-only", "read:repository")),
			publicNames...)
		// a full token sees what its user sees
		wantSet(t, searchRepoNames(t, srv, "limit=50", tokenHeader(srv, "alice", "read:repository")...),
			slices.Concat(publicNames, []string{"limo/lim-pub", "alice/alpha-two"})...)
		// a token without the repository scope may not search
		scopeWantDenied(is, srv.Do("GET", "/repos/search", nil, tokenHeader(srv, "alice", "read:user")...), "read:repository", "read:user")
	})

	t.Run("owner filters", func(t *testing.T) {
		is := is.New(t)
		// uid alone: owned and collaborated
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.carol), basicAs("carol")...), "carol/alpha-one", "bob/bob-secret")
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.carol)+"&exclusive=true", basicAs("carol")...), "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.carol)+"&mode=collaborative", basicAs("carol")...), "bob/bob-secret")
		// what the viewer may not see stays hidden
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.carol), basicAs("dave")...), "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.alice)+"&exclusive=true"),
			"alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")
		wantSet(t, searchRepoNames(t, srv, "uid="+uid(w.alice)+"&exclusive=true", basicAs("alice")...),
			"alice/alpha-one", "alice/alpha-two", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")
		// the SDK's OwnerID is uid with exclusive
		list, _, err := w.bobC.SearchRepos(gitea.SearchRepoOptions{OwnerID: w.bob.ID})
		is.NoErr(err)
		wantSet(t, fullNames(list), "bob/alpha-bob", "bob/bob-secret")
		// an unknown uid finds nothing
		wantNames(t, searchRepoNames(t, srv, "uid=999999"))
	})

	t.Run("flag filters", func(t *testing.T) {
		is := is.New(t)
		alice := basicAs("alice")
		mine := "uid=" + uid(w.alice) + "&exclusive=true&"
		// private=false leaves out private repositories even for their owner
		wantSet(t, searchRepoNames(t, srv, mine+"private=false", alice...),
			"alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")
		wantSet(t, searchRepoNames(t, srv, mine+"is_private=true", alice...), "alice/alpha-two")
		wantSet(t, searchRepoNames(t, srv, mine+"is_private=false", alice...),
			"alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")
		wantSet(t, searchRepoNames(t, srv, mine+"template=true", alice...), "alice/beta-tmpl")
		wantSet(t, searchRepoNames(t, srv, mine+"template=false", alice...),
			"alice/alpha-one", "alice/alpha-two", "alice/delta", "alice/gamma-arch")
		wantSet(t, searchRepoNames(t, srv, mine+"archived=true", alice...), "alice/gamma-arch")
		wantSet(t, searchRepoNames(t, srv, mine+"archived=false", alice...),
			"alice/alpha-one", "alice/alpha-two", "alice/beta-tmpl", "alice/delta")
		// the SDK's filters
		no := false
		list, _, err := w.aliceC.SearchRepos(gitea.SearchRepoOptions{OwnerID: w.alice.ID, IsArchived: &no, ExcludeTemplate: true})
		is.NoErr(err)
		wantSet(t, fullNames(list), "alice/alpha-one", "alice/alpha-two", "alice/delta")
		// private=false is the public view: a limited owner's repositories are left out too
		wantSet(t, searchRepoNames(t, srv, "private=false&limit=50", basicAs("dave")...), publicNames...)
		// bad booleans are 400
		for _, p := range []string{"private", "is_private", "template", "archived", "exclusive"} {
			assertAPIError(t, srv.Do("GET", "/repos/search?"+p+"=maybe", nil), http.StatusBadRequest, "")
		}
	})

	t.Run("modes", func(t *testing.T) {
		wantSet(t, searchRepoNames(t, srv, "mode=fork"), "carol/alpha-one")
		wantSet(t, searchRepoNames(t, srv, "mode=source"),
			"alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch", "bob/alpha-bob")
		wantNames(t, searchRepoNames(t, srv, "mode=mirror"))
		list, _, err := srv.Client().SearchRepos(gitea.SearchRepoOptions{Type: gitea.RepoTypeFork})
		if err != nil {
			t.Fatal(err)
		}
		wantNames(t, fullNames(list), "carol/alpha-one")
		if !list[0].Fork {
			t.Fatal("fork flag not set")
		}
		// collaborative without uid has nothing to restrict to (Gitea ignores it)
		wantSet(t, searchRepoNames(t, srv, "mode=collaborative"), publicNames...)
	})

	t.Run("sorting", func(t *testing.T) {
		// by default, and with alpha: by name (ties by id)
		byName := []string{"bob/alpha-bob", "alice/alpha-one", "carol/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch"}
		wantNames(t, searchRepoNames(t, srv, ""), byName...)
		wantNames(t, searchRepoNames(t, srv, "sort=alpha"), byName...)
		wantNames(t, searchRepoNames(t, srv, "sort=alpha&order=asc"), byName...)
		wantNames(t, searchRepoNames(t, srv, "sort=alpha&order=desc"), reversed(byName)...)
		// creation order
		created := []string{"alice/alpha-one", "alice/beta-tmpl", "alice/gamma-arch", "alice/delta", "bob/alpha-bob", "carol/alpha-one"}
		wantNames(t, searchRepoNames(t, srv, "sort=created"), created...)
		wantNames(t, searchRepoNames(t, srv, "sort=created&order=desc"), reversed(created)...)
		wantNames(t, searchRepoNames(t, srv, "sort=id"), created...)
		wantNames(t, searchRepoNames(t, srv, "sort=id&order=desc"), reversed(created)...)
		// gamma-arch was changed (archived) after everything else was created
		updated := searchRepoNames(t, srv, "sort=updated&order=desc")
		if updated[0] != "alice/gamma-arch" {
			t.Fatalf("most recently updated first: got %v", updated)
		}
		wantNames(t, searchRepoNames(t, srv, "sort=updated"), reversed(updated)...)
		// stars: delta 2, alpha-one 1, the rest 0 (ties by id)
		wantNames(t, searchRepoNames(t, srv, "sort=stars&order=desc"),
			"alice/delta", "alice/alpha-one", "carol/alpha-one", "bob/alpha-bob", "alice/gamma-arch", "alice/beta-tmpl")
		// size: the initialised repository and its fork are the largest
		bySize := searchRepoNames(t, srv, "sort=size&order=desc")
		wantSet(t, bySize[:2], "alice/alpha-one", "carol/alpha-one")
		bySizeAsc := searchRepoNames(t, srv, "sort=size")
		wantSet(t, bySizeAsc[4:], "alice/alpha-one", "carol/alpha-one")
	})

	t.Run("bad parameters", func(t *testing.T) {
		assertInvalid(t, srv.Do("GET", "/repos/search?sort=bogus", nil), "sort")
		assertInvalid(t, srv.Do("GET", "/repos/search?sort=alpha&order=sideways", nil), "order")
		assertInvalid(t, srv.Do("GET", "/repos/search?mode=bogus", nil), "mode")
		assertAPIError(t, srv.Do("GET", "/repos/search?uid=abc", nil), http.StatusBadRequest, "")
		assertAPIError(t, srv.Do("GET", "/repos/search?page=abc", nil), http.StatusBadRequest, "")
		assertAPIError(t, srv.Do("GET", "/repos/search?limit=abc", nil), http.StatusBadRequest, "")
	})
}

// reversed returns names in reverse order.
func reversed(names []string) []string {
	out := slices.Clone(names)
	slices.Reverse(out)
	return out
}

func TestLifeSearchPaging(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	pager, c := newAccount(t, srv, "pager", gitea.VisibleTypePublic)
	var want []string
	for i := range 12 {
		name := fmt.Sprintf("page-%02d", i)
		createRepo(t, c, gitea.CreateRepoOption{Name: name})
		want = append(want, "pager/"+name)
	}
	anon := srv.Client()

	// the default page holds 10, whatever the site's general page size
	r := srv.Do("GET", "/repos/search?q=page-", nil)
	is.Equal(r.Status, http.StatusOK)
	var env repoSearchEnvelope
	r.Decode(t, &env)
	is.Equal(fullNames(env.Data), want[:10])
	is.Equal(r.Header.Get("X-Total-Count"), "12")
	link := r.Header.Get("Link")
	is.True(strings.Contains(link, srv.URL+"/api/v1/repos/search?"))
	is.True(strings.Contains(link, "q=page-"))
	is.Equal(linkRels(t, link), map[string]int{"next": 2, "last": 2})

	// so does the SDK's call, which sends limit=0
	list, resp, err := anon.SearchRepos(gitea.SearchRepoOptions{Keyword: "page-"})
	is.NoErr(err)
	is.Equal(len(list), 10)
	is.Equal(resp.NextPage, 2)
	is.Equal(resp.LastPage, 2)

	list, resp, err = anon.SearchRepos(gitea.SearchRepoOptions{Keyword: "page-", ListOptions: gitea.ListOptions{Page: 2}})
	is.NoErr(err)
	is.Equal(fullNames(list), want[10:])
	is.Equal(linkRels(t, resp.Header.Get("Link")), map[string]int{"first": 1, "prev": 1})

	list, resp, err = anon.SearchRepos(gitea.SearchRepoOptions{Keyword: "page-", ListOptions: gitea.ListOptions{Page: 2, PageSize: 5}})
	is.NoErr(err)
	is.Equal(fullNames(list), want[5:10])
	is.Equal(linkRels(t, resp.Header.Get("Link")), map[string]int{"first": 1, "prev": 1, "next": 3, "last": 3})
	is.Equal(resp.Header.Get("X-Total-Count"), "12")

	// past the end: empty, not an error
	r = srv.Do("GET", "/repos/search?q=page-&limit=5&page=9", nil)
	is.Equal(r.Status, http.StatusOK)
	r.Decode(t, &env)
	is.Equal(len(env.Data), 0)
	is.Equal(r.Header.Get("X-Total-Count"), "12")

	// a page size above the maximum is the maximum; one full page has no Link
	r = srv.Do("GET", "/repos/search?q=page-&limit=1000", nil)
	r.Decode(t, &env)
	is.Equal(len(env.Data), 12)
	is.Equal(r.Header.Get("Link"), "")

	// paging keeps the other parameters
	r = srv.Do("GET", "/repos/search?uid="+strconv.FormatInt(pager.ID, 10)+"&sort=alpha&order=desc&limit=4", nil)
	r.Decode(t, &env)
	is.Equal(fullNames(env.Data), reversed(want)[:4])
	next := ""
	for _, part := range strings.Split(r.Header.Get("Link"), ",") {
		if strings.HasSuffix(part, `rel="next"`) {
			next = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(part), "<"), `>; rel="next"`)
		}
	}
	u, err := url.Parse(next)
	is.NoErr(err)
	is.Equal(u.Query().Get("sort"), "alpha")
	is.Equal(u.Query().Get("order"), "desc")
	is.Equal(u.Query().Get("page"), "2")
	r = srv.Do("GET", next, nil)
	r.Decode(t, &env)
	is.Equal(fullNames(env.Data), reversed(want)[4:8])
}

func TestLifeListRepos(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	srv := w.srv

	t.Run("GET /user/repos", func(t *testing.T) {
		is := is.New(t)
		// by name, as Gitea lists them
		list, _, err := w.aliceC.ListMyRepos(gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list),
			"alice/alpha-one", "alice/alpha-two", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")
		for _, r := range list {
			wantPerm(t, r, permissionOf(true, true, true))
		}
		// owned and collaborated
		list, _, err = w.carC.ListMyRepos(gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list), "carol/alpha-one", "bob/bob-secret")
		for _, r := range list {
			if r.FullName == "bob/bob-secret" {
				wantPerm(t, r, permissionOf(false, false, true))
			}
		}
		r := srv.Do("GET", "/user/repos", nil, basicAs("dave")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(strings.TrimSpace(string(r.Body)), "[]")
		is.Equal(r.Header.Get("X-Total-Count"), "0")

		assertAPIError(t, srv.Do("GET", "/user/repos", nil), http.StatusUnauthorized, "token is required")
		scopeWantDenied(is, srv.Do("GET", "/user/repos", nil, tokenHeader(srv, "alice", "read:user")...), "read:repository", "read:user")
		// a public-only token lists the public ones only
		r = srv.Do("GET", "/user/repos", nil, tokenHeader(srv, "alice", "public-only", "read:repository")...)
		is.Equal(r.Status, http.StatusOK)
		var pub []*gitea.Repository
		r.Decode(t, &pub)
		wantSet(t, fullNames(pub), "alice/alpha-one", "alice/beta-tmpl", "alice/delta", "alice/gamma-arch")

		// paging
		list, resp, err := w.aliceC.ListMyRepos(gitea.ListReposOptions{ListOptions: gitea.ListOptions{PageSize: 2}})
		is.NoErr(err)
		is.Equal(len(list), 2)
		is.Equal(resp.Header.Get("X-Total-Count"), "5")
		is.Equal(resp.LastPage, 3)
	})

	t.Run("GET /users/{u}/repos", func(t *testing.T) {
		is := is.New(t)
		public := []string{"alice/alpha-one", "alice/beta-tmpl", "alice/gamma-arch", "alice/delta"} // by id
		list, _, err := srv.Client().ListUserRepos("alice", gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list), public...)
		for _, r := range list {
			wantPerm(t, r, permissionOf(false, false, true))
		}
		list, _, err = w.bobC.ListUserRepos("alice", gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list), public...)
		list, _, err = w.aliceC.ListUserRepos("alice", gitea.ListReposOptions{})
		is.NoErr(err)
		wantSet(t, fullNames(list), slices.Concat(public, []string{"alice/alpha-two"})...)
		list, _, err = srv.AdminClient().ListUserRepos("alice", gitea.ListReposOptions{})
		is.NoErr(err)
		wantSet(t, fullNames(list), slices.Concat(public, []string{"alice/alpha-two"})...)
		// only owned repositories, never collaborations
		list, _, err = w.carC.ListUserRepos("carol", gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list), "carol/alpha-one")
		// a collaborator sees the private repository it reads among the owner's
		list, _, err = w.carC.ListUserRepos("bob", gitea.ListReposOptions{})
		is.NoErr(err)
		wantSet(t, fullNames(list), "bob/alpha-bob", "bob/bob-secret")
		list, _, err = srv.Client().ListUserRepos("bob", gitea.ListReposOptions{})
		is.NoErr(err)
		wantNames(t, fullNames(list), "bob/alpha-bob")

		_, resp, err := srv.Client().ListUserRepos("nobody", gitea.ListReposOptions{})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// a private user's repositories are 404 to others, a limited user's to anonymous callers
		assertAPIError(t, srv.Do("GET", "/users/privo/repos", nil, basicAs("bob")...), http.StatusNotFound, "user does not exist")
		assertAPIError(t, srv.Do("GET", "/users/privo/repos", nil), http.StatusNotFound, "user does not exist")
		assertAPIError(t, srv.Do("GET", "/users/limo/repos", nil), http.StatusNotFound, "user does not exist")
		r := srv.Do("GET", "/users/limo/repos", nil, basicAs("bob")...)
		is.Equal(r.Status, http.StatusOK)
		var lim []*gitea.Repository
		r.Decode(t, &lim)
		wantNames(t, fullNames(lim), "limo/lim-pub")
		r = srv.Do("GET", "/users/privo/repos", nil, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusOK)
		var priv []*gitea.Repository
		r.Decode(t, &priv)
		wantNames(t, fullNames(priv), "privo/priv-pub")
		r = srv.Do("GET", "/users/privo/repos", nil, basicAs("privo")...)
		is.Equal(r.Status, http.StatusOK)

		// tokens: the repository scope is needed; public-only sees public owners' public repositories
		scopeWantDenied(is, srv.Do("GET", "/users/alice/repos", nil, tokenHeader(srv, "alice", "read:user")...), "read:repository", "read:user")
		assertAPIError(t, srv.Do("GET", "/users/limo/repos", nil, tokenHeader(srv, "bob", "public-only", "read:repository")...),
			http.StatusNotFound, "user does not exist")
		r = srv.Do("GET", "/users/alice/repos", nil, tokenHeader(srv, "alice", "public-only", "read:repository")...)
		is.Equal(r.Status, http.StatusOK)
		var pub []*gitea.Repository
		r.Decode(t, &pub)
		wantNames(t, fullNames(pub), public...)

		// paging
		list, resp, err = srv.Client().ListUserRepos("alice", gitea.ListReposOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
		is.NoErr(err)
		wantNames(t, fullNames(list), "alice/delta")
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		is.Equal(resp.PrevPage, 1)
	})
}

// TestLifeTemplates covers the template routes of the miscellaneous group.
func TestLifeTemplates(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	anon := srv.Client()

	t.Run("gitignore", func(t *testing.T) {
		is := is.New(t)
		names, _, err := anon.ListGitignoresTemplates()
		is.NoErr(err)
		is.True(slices.Contains(names, "Go"))
		is.True(slices.Contains(names, "Node"))
		is.True(slices.IsSorted(names))
		info, _, err := anon.GetGitignoreTemplateInfo("Go")
		is.NoErr(err)
		is.Equal(info.Name, "Go")
		is.True(strings.Contains(info.Source, "*.exe"))
		var raw map[string]any
		r := srv.Do("GET", "/gitignore/templates/Go", nil)
		r.Decode(t, &raw)
		is.Equal(len(raw), 2) // {name, source}
		_, resp, err := anon.GetGitignoreTemplateInfo("NoSuchTemplate")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/gitignore/templates/NoSuchTemplate", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/gitignore/templates/..%2F..%2Fetc%2Fpasswd", nil), http.StatusNotFound, "")
	})

	t.Run("licenses", func(t *testing.T) {
		is := is.New(t)
		list, _, err := anon.ListLicenseTemplates()
		is.NoErr(err)
		is.True(len(list) > 10)
		var mit *gitea.LicensesTemplateListEntry
		for _, l := range list {
			is.True(l.Key != "")
			is.True(l.Name != "")
			is.True(strings.HasPrefix(l.URL, srv.API+"/licenses/"))
			if l.Key == "MIT" {
				mit = l
			}
		}
		is.True(mit != nil)
		is.Equal(mit.Name, "MIT License")
		is.Equal(mit.URL, srv.API+"/licenses/MIT")
		info, _, err := anon.GetLicenseTemplateInfo("MIT")
		is.NoErr(err)
		is.Equal(info.Key, "MIT")
		is.Equal(info.Name, "MIT License")
		is.True(strings.Contains(info.Body, "Permission is hereby granted"))
		is.True(info.Implementation != "")
		_, resp, err := anon.GetLicenseTemplateInfo("No-Such-License")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/licenses/No-Such-License", nil), http.StatusNotFound, "")
	})

	t.Run("label templates", func(t *testing.T) {
		is := is.New(t)
		names, _, err := anon.ListLabelTemplates()
		is.NoErr(err)
		is.True(slices.Contains(names, "Default"))
		labels, _, err := anon.GetLabelTemplate("Default")
		is.NoErr(err)
		is.True(len(labels) > 0)
		var bug *gitea.LabelTemplate
		for _, l := range labels {
			is.True(l.Name != "")
			is.True(len(l.Color) == 6 && !strings.HasPrefix(l.Color, "#"))
			if l.Name == "bug" {
				bug = l
			}
		}
		is.True(bug != nil)
		is.True(bug.Description != "")
		var raw []map[string]any
		srv.Do("GET", "/label/templates/Default", nil).Decode(t, &raw)
		for _, k := range []string{"name", "color", "description", "exclusive"} {
			_, ok := raw[0][k]
			is.True(ok)
		}
		_, resp, err := anon.GetLabelTemplate("NoSuchSet")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/label/templates/NoSuchSet", nil), http.StatusNotFound, "")
	})
}
