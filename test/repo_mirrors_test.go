package test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// mirrorReader adds a read collaborator to owner/repo on srv and returns its
// Authorization header.
func mirrorReader(t *testing.T, srv *testserver.Server, owner *gitea.Client, ownerName, repo, name string) []string {
	t.Helper()
	if _, _, err := srv.AdminClient().GetUserInfo(name); err != nil {
		newAccount(t, srv, name, gitea.VisibleTypePublic)
	}
	read := gitea.AccessModeRead
	if _, err := owner.AddCollaborator(ownerName, repo, name, gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatalf("add collaborator %s: %v", name, err)
	}
	return basicAs(name)
}

func TestMirrorSync(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		p := mirrorSetup(t, opts...)
		srcPub := httpGitURL(p.src, "alice", "pub", "", "")
		dstMirror := httpGitURL(p.dst, "bob", "mirror", "", "")

		before := time.Now().Add(-time.Minute)
		r, resp, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{
			CloneAddr: srcPub, RepoName: "mirror", Mirror: true, MirrorInterval: "10m"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.True(r.Mirror)
		is.Equal(r.MirrorInterval, "10m0s")
		is.Equal(r.OriginalURL, srcPub)
		is.True(r.MirrorUpdated.After(before))
		is.Equal(mirrorRefs(t, dstMirror), mirrorRefs(t, srcPub))

		// New commits, a new tag and a deleted branch on the source reach the
		// mirror with the next sync.
		httpGitCommit(t, p.work, "c.txt", "c\n", "third")
		httpGitOK(t, p.work, "tag", "v2")
		httpGitOK(t, p.work, "push", "-q", "origin", "main", "v2", ":dev")
		want := mirrorRefs(t, srcPub)
		is.True(!slices.Equal(mirrorRefs(t, dstMirror), want))
		resp2 := p.dst.Do("POST", "/repos/bob/mirror/mirror-sync", nil, basicAs("bob")...)
		is.Equal(resp2.Status, http.StatusAccepted)
		mirrorEventually(t, "the mirror to sync", func() bool { return slices.Equal(mirrorRefs(t, dstMirror), want) })
		httpGitFsck(t, p.dst, "bob", "mirror")

		// The SDK's call works as well, and a repeated request is harmless.
		_, err = p.bob.MirrorSync("bob", "mirror")
		is.NoErr(err)
		_, err = p.bob.MirrorSync("bob", "mirror")
		is.NoErr(err)

		t.Run("PushesAreRefused", func(t *testing.T) {
			out := httpGitFails(t, p.work, "push", httpGitURL(p.dst, "bob", "mirror", "bob", userPassword), "main:other")
			is.New(t).True(strings.Contains(out, "mirror repository is read-only"))
		})

		t.Run("NotAMirror", func(t *testing.T) {
			createRepo(t, p.bob, gitea.CreateRepoOption{Name: "plain", AutoInit: true})
			assertAPIError(t, p.dst.Do("POST", "/repos/bob/plain/mirror-sync", nil, basicAs("bob")...),
				http.StatusNotFound, "repository is not a mirror")
		})

		t.Run("Access", func(t *testing.T) {
			reader := mirrorReader(t, p.dst, p.bob, "bob", "mirror", "rita")
			assertAPIError(t, p.dst.Do("POST", "/repos/bob/mirror/mirror-sync", nil), http.StatusUnauthorized, "token is required")
			is := is.New(t)
			is.Equal(p.dst.Do("POST", "/repos/bob/mirror/mirror-sync", nil, reader...).Status, http.StatusForbidden)
			is.Equal(p.dst.Do("POST", "/repos/bob/absent/mirror-sync", nil, basicAs("bob")...).Status, http.StatusNotFound)
		})

		t.Run("Interval", func(t *testing.T) {
			is := is.New(t)
			for _, bad := range []string{"5m", "often", "-1h"} {
				assertInvalid(t, p.dst.Do("PATCH", "/repos/bob/mirror", map[string]any{"mirror_interval": bad}, basicAs("bob")...),
					"MirrorInterval")
			}
			for in, want := range map[string]string{"1h": "1h0m0s", "90m": "1h30m0s", "0": "0s"} {
				r, _, err := p.bob.EditRepo("bob", "mirror", gitea.EditRepoOption{MirrorInterval: &in})
				is.NoErr(err)
				is.Equal(r.MirrorInterval, want)
			}
			// A mirror without scheduled syncs still syncs when asked.
			httpGitCommit(t, p.work, "d.txt", "d\n", "fourth")
			httpGitOK(t, p.work, "push", "-q", "origin", "main")
			want := mirrorRefs(t, srcPub)
			_, err := p.bob.MirrorSync("bob", "mirror")
			is.NoErr(err)
			mirrorEventually(t, "the unscheduled mirror to sync", func() bool { return slices.Equal(mirrorRefs(t, dstMirror), want) })
		})
	})
}

func TestMirrorPrivateSourceWithToken(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := mirrorSetup(t)
	srcPriv := httpGitURL(p.src, "alice", "priv", "", "")
	srcPrivAuth := httpGitURL(p.src, "alice", "priv", "alice", userPassword)
	dstMirror := httpGitURL(p.dst, "bob", "pmirror", "bob", userPassword)
	r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{
		CloneAddr: srcPriv, AuthToken: p.aliceToken, RepoName: "pmirror", Private: true, Mirror: true})
	is.NoErr(err)
	is.Equal(r.MirrorInterval, "8h0m0s") // the default
	is.Equal(r.OriginalURL, srcPriv)

	work := httpGitClone(t, srcPrivAuth)
	httpGitCommit(t, work, "e.txt", "e\n", "more")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	want := mirrorRefs(t, srcPrivAuth)
	_, err = p.bob.MirrorSync("bob", "pmirror")
	is.NoErr(err)
	// The stored token is opened again for the sync.
	mirrorEventually(t, "the private mirror to sync", func() bool { return slices.Equal(mirrorRefs(t, dstMirror), want) })
	mirrorNotStored(t, p.dst, p.aliceToken)
}

// mirrorPushTarget makes an empty repository on src for a push mirror.
func mirrorPushTarget(t *testing.T, p *mirrorPair, name string) string {
	t.Helper()
	createRepo(t, p.alice, gitea.CreateRepoOption{Name: name, Private: true})
	return httpGitURL(p.src, "alice", name, "", "")
}

func TestPushMirror(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		p := mirrorSetup(t, opts...)
		createRepo(t, p.bob, gitea.CreateRepoOption{Name: "proj", AutoInit: true})
		bobWork := httpGitClone(t, httpGitURL(p.dst, "bob", "proj", "bob", userPassword))
		httpGitOK(t, bobWork, "checkout", "-q", "-b", "feature")
		httpGitCommit(t, bobWork, "f.txt", "f\n", "feature work")
		httpGitOK(t, bobWork, "tag", "v1")
		httpGitOK(t, bobWork, "push", "-q", "origin", "feature", "v1")
		dstProj := httpGitURL(p.dst, "bob", "proj", "bob", userPassword)
		target := mirrorPushTarget(t, p, "target")
		targetAuth := httpGitURL(p.src, "alice", "target", "alice", userPassword)

		pm, resp, err := p.bob.PushMirrors("bob", "proj", gitea.CreatePushMirrorOption{
			RemoteAddress: target, RemoteUsername: "alice", RemotePassword: p.aliceToken, Interval: "8h"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(pm.RepoName, "proj")
		is.True(strings.HasPrefix(pm.RemoteName, "remote_mirror_"))
		is.Equal(pm.RemoteAddress, target)
		is.Equal(pm.Interval, "8h0m0s")
		is.True(!pm.SyncONCommit)
		is.Equal(pm.LastUpdate, "") // null before the first push
		_, err = time.Parse(time.RFC3339, pm.Created)
		is.NoErr(err)
		mirrorNotStored(t, p.dst, p.aliceToken)

		// Nothing is pushed until asked (or scheduled).
		is.Equal(len(mirrorRefs(t, targetAuth)), 0)
		resp2 := p.dst.Do("POST", "/repos/bob/proj/push_mirrors-sync", nil, basicAs("bob")...)
		is.Equal(resp2.Status, http.StatusOK)
		is.Equal(len(resp2.Body), 0)
		want := mirrorRefs(t, dstProj)
		mirrorEventually(t, "the push mirror to receive", func() bool { return slices.Equal(mirrorRefs(t, targetAuth), want) })
		mirrorEventually(t, "the push to be recorded", func() bool {
			got, _, err := p.bob.GetPushMirrorByRemoteName("bob", "proj", pm.RemoteName)
			return err == nil && got.LastUpdate != "" && got.LastError == ""
		})

		t.Run("ListGetDelete", func(t *testing.T) {
			is := is.New(t)
			second, _, err := p.bob.PushMirrors("bob", "proj", gitea.CreatePushMirrorOption{
				RemoteAddress: httpGitURL(p.src, "alice", "target", "alice", "in-url-secret"), Interval: "0", SyncONCommit: true})
			is.NoErr(err)
			is.Equal(second.RemoteAddress, target) // the address's own credentials are taken out too
			is.Equal(second.Interval, "0s")
			is.True(second.SyncONCommit)
			list, resp, err := p.bob.ListPushMirrors("bob", "proj", gitea.ListOptions{Page: 1, PageSize: 1})
			is.NoErr(err)
			is.Equal(len(list), 1)
			is.Equal(list[0].RemoteName, pm.RemoteName)
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			got, _, err := p.bob.GetPushMirrorByRemoteName("bob", "proj", second.RemoteName)
			is.NoErr(err)
			is.Equal(got.RemoteName, second.RemoteName)

			_, err = p.bob.DeletePushMirror("bob", "proj", second.RemoteName)
			is.NoErr(err)
			is.Equal(p.dst.Do("GET", "/repos/bob/proj/push_mirrors/"+second.RemoteName, nil, basicAs("bob")...).Status, http.StatusNotFound)
			is.Equal(p.dst.Do("DELETE", "/repos/bob/proj/push_mirrors/"+second.RemoteName, nil, basicAs("bob")...).Status, http.StatusNotFound)
			is.Equal(p.dst.Do("GET", "/repos/bob/proj/push_mirrors/remote_mirror_nothing", nil, basicAs("bob")...).Status, http.StatusNotFound)
			list, _, err = p.bob.ListPushMirrors("bob", "proj", gitea.ListOptions{})
			is.NoErr(err)
			is.Equal(len(list), 1)
		})

		t.Run("SyncOnCommit", func(t *testing.T) {
			is := is.New(t)
			target2 := mirrorPushTarget(t, p, "target2")
			target2Auth := httpGitURL(p.src, "alice", "target2", "alice", userPassword)
			_, _, err := p.bob.PushMirrors("bob", "proj", gitea.CreatePushMirrorOption{
				RemoteAddress: target2, RemoteUsername: "alice", RemotePassword: userPassword, Interval: "0", SyncONCommit: true})
			is.NoErr(err)
			httpGitCommit(t, bobWork, "g.txt", "g\n", "on commit")
			httpGitOK(t, bobWork, "push", "-q", "origin", "feature")
			want := mirrorRefs(t, dstProj)
			mirrorEventually(t, "the push on commit", func() bool { return slices.Equal(mirrorRefs(t, target2Auth), want) })
			// Two quick pushes: the second one is pushed too, whether or not
			// the first push to the mirror is still running.
			httpGitCommit(t, bobWork, "h.txt", "h\n", "quick one")
			httpGitOK(t, bobWork, "push", "-q", "origin", "feature")
			httpGitCommit(t, bobWork, "i.txt", "i\n", "quick two")
			httpGitOK(t, bobWork, "push", "-q", "origin", "feature")
			want = mirrorRefs(t, dstProj)
			mirrorEventually(t, "both quick pushes", func() bool { return slices.Equal(mirrorRefs(t, target2Auth), want) })
		})

		t.Run("FailureIsRecorded", func(t *testing.T) {
			is := is.New(t)
			bad, _, err := p.bob.PushMirrors("bob", "proj", gitea.CreatePushMirrorOption{
				RemoteAddress: target, RemoteUsername: "alice", RemotePassword: "not-the-password-9", Interval: "0"})
			is.NoErr(err)
			_, err = p.bob.TriggerPushMirrorsSync("bob", "proj")
			is.NoErr(err)
			var got *gitea.PushMirrorResponse
			mirrorEventually(t, "the failure to be recorded", func() bool {
				got, _, err = p.bob.GetPushMirrorByRemoteName("bob", "proj", bad.RemoteName)
				return err == nil && got.LastError != ""
			})
			is.True(got.LastUpdate != "")
			is.True(!strings.Contains(got.LastError, "not-the-password-9"))
		})

		t.Run("BadInput", func(t *testing.T) {
			for _, c := range []struct {
				field string
				body  any
			}{
				{"RemoteAddress", map[string]any{"interval": "8h"}},
				{"RemoteAddress", map[string]any{"remote_address": "not a url"}},
				{"RemoteAddress", map[string]any{"remote_address": "file:///etc/passwd"}},
				{"RemoteAddress", map[string]any{"remote_address": "ftp://127.0.0.1/x.git"}},
				{"Interval", map[string]any{"remote_address": target, "interval": "1m"}},
				{"Interval", map[string]any{"remote_address": target, "interval": "soon"}},
				{"SyncOnCommit", map[string]any{"remote_address": target, "sync_on_commit": "yes"}},
			} {
				assertInvalid(t, p.dst.Do("POST", "/repos/bob/proj/push_mirrors", c.body, basicAs("bob")...), c.field)
			}
			is.New(t).Equal(p.dst.Do("POST", "/repos/bob/proj/push_mirrors", `{"remote_address":`, basicAs("bob")...).Status,
				http.StatusBadRequest)
		})

		t.Run("Access", func(t *testing.T) {
			is := is.New(t)
			reader := mirrorReader(t, p.dst, p.bob, "bob", "proj", "rita")
			body := map[string]any{"remote_address": target, "interval": "0"}
			for _, c := range []struct{ method, path string }{
				{"GET", "/repos/bob/proj/push_mirrors"},
				{"POST", "/repos/bob/proj/push_mirrors"},
				{"GET", "/repos/bob/proj/push_mirrors/" + pm.RemoteName},
				{"DELETE", "/repos/bob/proj/push_mirrors/" + pm.RemoteName},
				{"POST", "/repos/bob/proj/push_mirrors-sync"},
			} {
				var b any
				if c.method == "POST" {
					b = body
				}
				assertAPIError(t, p.dst.Do(c.method, c.path, b), http.StatusUnauthorized, "token is required")
				is.Equal(p.dst.Do(c.method, c.path, b, reader...).Status, http.StatusForbidden)
			}
			// A stranger does not learn that a private repository exists.
			newAccount(t, p.dst, "sam", gitea.VisibleTypePublic)
			createRepo(t, p.bob, gitea.CreateRepoOption{Name: "secret", Private: true})
			is.Equal(p.dst.Do("GET", "/repos/bob/secret/push_mirrors", nil, basicAs("sam")...).Status, http.StatusNotFound)
			// Archived repositories refuse the writes (423), not the reads.
			archived := true
			_, _, err := p.bob.EditRepo("bob", "secret", gitea.EditRepoOption{Archived: &archived})
			is.NoErr(err)
			is.Equal(p.dst.Do("POST", "/repos/bob/secret/push_mirrors", body, basicAs("bob")...).Status, http.StatusLocked)
			is.Equal(p.dst.Do("POST", "/repos/bob/secret/push_mirrors-sync", nil, basicAs("bob")...).Status, http.StatusLocked)
			is.Equal(p.dst.Do("GET", "/repos/bob/secret/push_mirrors", nil, basicAs("bob")...).Status, http.StatusOK)
		})
	})
}
