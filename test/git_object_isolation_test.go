package test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// isolationSecret is the content of the file only alice's private
// repository holds.
const isolationSecret = "DATABASE_PASSWORD=correct-horse-battery-staple\n"

// isolationFix is alice's private repository "priv" holding a secret file,
// an annotated tag, a note and a commit status, and bob's public repository
// "public" holding none of these objects.
type isolationFix struct {
	srv *testserver.Server
	// ids of priv's objects: the commit, its root tree, the secret's blob,
	// the annotated tag object.
	commit, tree, blob, tag string
}

// isolationSetup starts a server with the fixture; the objects are pushed
// with git straight into the bare repository, so no server cache has seen
// them yet.
func isolationSetup(t *testing.T, opts ...testserver.Option) isolationFix {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	w := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "priv", Private: true}, func(w string) {
		contentsWrite(t, w, "secret.env", []byte(isolationSecret))
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "add the secret")
		gitRun(t, w, "tag", "-a", "-m", "release of the secret", "v1")
		gitRun(t, w, "notes", "add", "-m", "note on the secret commit")
	}, "HEAD:main", "v1", "refs/notes/commits")
	createRepo(t, bob, gitea.CreateRepoOption{Name: "public", AutoInit: true})
	f := isolationFix{srv: srv,
		commit: strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD")),
		tree:   strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD^{tree}")),
		blob:   strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD:secret.env")),
		tag:    strings.TrimSpace(gitRun(t, w, "rev-parse", "v1")),
	}
	st, _, err := alice.CreateStatus("alice", "priv", f.commit, gitea.CreateStatusOption{
		State: gitea.StatusSuccess, Context: "secret-ci", Description: "private build"})
	if err != nil || st == nil {
		t.Fatalf("create status: %v", err)
	}
	return f
}

// isolationKind is one way of reading an object by its id: the path under a
// repository's API prefix, the status Depot (as Gitea) answers when the
// repository does not hold the object, and a piece of its answer in the
// repository that does.
type isolationKind struct {
	name    string
	path    func(f isolationFix) string
	missing int
	shows   string
}

// isolationKinds are every read of an object by a client-named id.
var isolationKinds = []isolationKind{
	{"blob", func(f isolationFix) string { return "/git/blobs/" + f.blob }, http.StatusBadRequest, base64.StdEncoding.EncodeToString([]byte(isolationSecret))},
	{"tree", func(f isolationFix) string { return "/git/trees/" + f.tree }, http.StatusBadRequest, "secret.env"},
	{"tree recursive", func(f isolationFix) string { return "/git/trees/" + f.tree + "?recursive=true" }, http.StatusBadRequest, "secret.env"},
	{"git commit", func(f isolationFix) string { return "/git/commits/" + f.commit }, http.StatusNotFound, "add the secret"},
	{"commit", func(f isolationFix) string { return "/commits/" + f.commit }, http.StatusNotFound, "add the secret"},
	{"commits from", func(f isolationFix) string { return "/commits?sha=" + f.commit }, http.StatusNotFound, "add the secret"},
	{"commits of a path", func(f isolationFix) string { return "/commits?sha=" + f.commit + "&path=secret.env" }, http.StatusNotFound, "add the secret"},
	{"diff", func(f isolationFix) string { return "/git/commits/" + f.commit + ".diff" }, http.StatusNotFound, "+DATABASE_PASSWORD"},
	{"patch", func(f isolationFix) string { return "/git/commits/" + f.commit + ".patch" }, http.StatusNotFound, "+DATABASE_PASSWORD"},
	{"annotated tag", func(f isolationFix) string { return "/git/tags/" + f.tag }, http.StatusNotFound, "release of the secret"},
	{"note", func(f isolationFix) string { return "/git/notes/" + f.commit }, http.StatusNotFound, "note on the secret commit"},
	{"contents", func(f isolationFix) string { return "/contents/secret.env?ref=" + f.commit }, http.StatusNotFound, base64.StdEncoding.EncodeToString([]byte(isolationSecret))},
	{"contents listing", func(f isolationFix) string { return "/contents?ref=" + f.commit }, http.StatusNotFound, "secret.env"},
	{"raw", func(f isolationFix) string { return "/raw/secret.env?ref=" + f.commit }, http.StatusNotFound, isolationSecret},
	{"raw by commit", func(f isolationFix) string { return "/raw/" + f.commit + "/secret.env" }, http.StatusNotFound, isolationSecret},
	{"media", func(f isolationFix) string { return "/media/secret.env?ref=" + f.commit }, http.StatusNotFound, isolationSecret},
	{"archive", func(f isolationFix) string { return "/archive/" + f.commit + ".tar.gz" }, http.StatusNotFound, "\x1f\x8b"},
	{"combined status", func(f isolationFix) string { return "/commits/" + f.commit + "/status" }, http.StatusNotFound, "secret-ci"},
	{"statuses by ref", func(f isolationFix) string { return "/commits/" + f.commit + "/statuses" }, http.StatusNotFound, "secret-ci"},
	{"statuses", func(f isolationFix) string { return "/statuses/" + f.commit }, http.StatusOK, "secret-ci"},
	{"compare", func(f isolationFix) string { return "/compare/" + f.commit + "..." + f.commit }, http.StatusNotFound, `"total_commits"`},
}

// TestGitObjectsCrossRepo reads each of alice's private objects by id
// through bob's public repository, anonymously and as carol, before and
// after alice read them (which warms every cache the server keeps): both
// answers are the one for an object the repository does not hold, and
// nothing of the object shows.
func TestGitObjectsCrossRepo(t *testing.T) {
	t.Parallel()
	gitObjectsCrossRepo(t)
}

// TestGitObjectsCrossRepoPostgres is TestGitObjectsCrossRepo on Postgres.
func TestGitObjectsCrossRepoPostgres(t *testing.T) {
	t.Parallel()
	gitObjectsCrossRepo(t, testserver.OnPostgres())
}

func gitObjectsCrossRepo(t *testing.T, opts ...testserver.Option) {
	f := isolationSetup(t, opts...)
	callers := map[string][]string{"anonymous": nil, "carol": basicAs("carol")}
	ask := func(t *testing.T, k isolationKind, caller string) testserver.Response {
		t.Helper()
		return f.srv.Do("GET", "/repos/bob/public"+k.path(f), nil, callers[caller]...)
	}
	cold := map[string]testserver.Response{}
	for _, k := range isolationKinds {
		for caller := range callers {
			cold[k.name+"/"+caller] = ask(t, k, caller)
		}
	}
	// alice reads everything first, so that every kind meets caches warmed
	// by all the others (a contents read fills the blob cache, …).
	for _, k := range isolationKinds {
		own := f.srv.Do("GET", "/repos/alice/priv"+k.path(f), nil, basicAs("alice")...)
		if own.Status != http.StatusOK || !bytes.Contains(own.Body, []byte(k.shows)) {
			t.Fatalf("%s: alice reads her own object: %d %.200q", k.name, own.Status, own.Body)
		}
	}
	for _, k := range isolationKinds {
		t.Run(k.name, func(t *testing.T) {
			is := is.New(t)
			for caller := range callers {
				c, warm := cold[k.name+"/"+caller], ask(t, k, caller)
				is.Equal(c.Status, k.missing)   // cold: the object is not in bob's repository
				is.Equal(warm.Status, c.Status) // warm: the same answer
				is.Equal(warm.Message(), c.Message())
				is.True(!bytes.Contains(warm.Body, []byte(k.shows))) // nothing of alice's object
				is.True(!bytes.Contains(warm.Body, []byte(isolationSecret)))
			}
		})
	}
}
