package test

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// doctorBackends runs f on SQLite and then on Postgres.
func doctorBackends(t *testing.T, f func(t *testing.T, opts ...testserver.Option)) {
	t.Run("sqlite", func(t *testing.T) { f(t) })
	t.Run("postgres", func(t *testing.T) { f(t, testserver.OnPostgres()) })
}

// doctorWrite writes a file of the data directory last changed age ago.
func doctorWrite(t *testing.T, path string, data []byte, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-age)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// lastSegment is what follows a URL's last slash: an avatar link's hash.
func lastSegment(u string) string { return u[strings.LastIndex(u, "/")+1:] }

// TestSiteDoctorAvatars gives a user, an organisation and a repository
// avatars, then removes the user's and the repository's images and leaves
// an image no row names, and checks that the doctor reports the two rows
// whose image is gone and the orphan (not an image written in the last
// minute, whose row may be on its way, nor the organisation's), exits
// non-zero, and that --fix removes the orphan and clears the two rows, so
// that the user shows its generated avatar and the repository none, while
// the organisation keeps its own; on Postgres the running server forgets
// its copy of the account at once.
func TestSiteDoctorAvatars(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		site := newBackupSite(t, opts...)
		is := is.New(t)
		c := site.srv.Client(gitea.SetToken(site.token))
		image := gradientPNG(t, 64, 48)
		img := base64.StdEncoding.EncodeToString(image)
		_, err := c.UpdateUserAvatar(gitea.UpdateUserAvatarOption{Image: img})
		is.NoErr(err)
		_, _, err = c.CreateOrg(gitea.CreateOrgOption{Name: "flock"})
		is.NoErr(err)
		_, err = c.UpdateOrgAvatar("flock", gitea.UpdateUserAvatarOption{Image: img})
		is.NoErr(err)
		_, err = c.UpdateRepoAvatar("wren", "nest", gitea.UpdateRepoAvatarOption{Image: img})
		is.NoErr(err)
		u, _, err := c.GetUserInfo("wren")
		is.NoErr(err)
		org, _, err := c.GetOrg("flock")
		is.NoErr(err)
		repo, _, err := c.GetRepo("wren", "nest")
		is.NoErr(err)
		userHash, orgHash, repoHash := lastSegment(u.AvatarURL), lastSegment(org.AvatarURL), lastSegment(repo.AvatarURL)
		is.Equal(len(userHash), 32)
		is.Equal(len(orgHash), 32)
		is.Equal(len(repoHash), 32)

		args := append([]string{"doctor", "--skip-fsck", "--data-dir", site.srv.DataDir}, backupDBArgs(site.srv.DSN)...)
		r := backupDepot(t, bin, args...)
		is.Equal(r.code, 0) // every avatar has its image
		is.True(strings.Contains(r.stdout, "no problem remains"))

		avatars := filepath.Join(site.srv.DataDir, "avatars")
		is.NoErr(os.Remove(filepath.Join(avatars, userHash+".png")))
		is.NoErr(os.Remove(filepath.Join(avatars, repoHash+".png")))
		orphan, fresh := strings.Repeat("ab", 16), strings.Repeat("cd", 16)
		doctorWrite(t, filepath.Join(avatars, orphan+".png"), image, 2*time.Minute)
		doctorWrite(t, filepath.Join(avatars, fresh+".png"), image, 0)

		r = backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s", r.stdout)
		is.True(r.code != 0)
		is.True(strings.Contains(r.stdout, "blob-orphan: avatar "+orphan+": no user, organization or repository row names it\n"))
		is.True(strings.Contains(r.stdout, "blob-missing: avatar of user wren: its row names avatar "+userHash+", a file that is gone\n"))
		is.True(strings.Contains(r.stdout, "blob-missing: avatar of repository wren/nest: its row names avatar "+repoHash))
		is.True(!strings.Contains(r.stdout, fresh))   // too young to judge
		is.True(!strings.Contains(r.stdout, orgHash)) // whole
		is.True(!strings.Contains(r.stdout, "organization flock"))

		me, _, err := c.GetMyUserInfo() // the server keeps the account with the token now
		is.NoErr(err)
		is.Equal(lastSegment(me.AvatarURL), userHash)
		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s", r.stdout)
		is.Equal(r.code, 0)
		if site.srv.DSN != "" {
			// On Postgres the doctor tells the running servers, which forget
			// their copy well before its ten seconds are up.
			clusterWithin(t, 5*time.Second, "the cleared avatar seen through the token", func() bool {
				me, _, err := c.GetMyUserInfo()
				return err == nil && lastSegment(me.AvatarURL) != userHash
			})
		}
		is.True(strings.Contains(r.stdout, "avatar "+orphan+": no user, organization or repository row names it (fixed)"))
		is.True(strings.Contains(r.stdout, "avatar of user wren: its row names avatar "+userHash+", a file that is gone; cleared from the row, as a deleted avatar is (fixed)"))
		is.True(strings.Contains(r.stdout, "avatar of repository wren/nest: its row names avatar "+repoHash+", a file that is gone; cleared"))
		_, err = os.Stat(filepath.Join(avatars, orphan+".png"))
		is.True(os.IsNotExist(err)) // the orphan is gone
		_, err = os.Stat(filepath.Join(avatars, fresh+".png"))
		is.NoErr(err) // the young one stays
		_, err = os.Stat(filepath.Join(avatars, orgHash+".png"))
		is.NoErr(err)

		r = backupDepot(t, bin, args...)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		u, _, err = c.GetUserInfo("wren")
		is.NoErr(err)
		is.True(u.AvatarURL != "" && lastSegment(u.AvatarURL) != userHash) // the generated one
		got := site.srv.Do("GET", u.AvatarURL, nil)
		is.Equal(got.Status, http.StatusOK) // and it answers an image
		repo, _, err = c.GetRepo("wren", "nest")
		is.NoErr(err)
		is.Equal(repo.AvatarURL, "") // as after DELETE /repos/{owner}/{repo}/avatar
		org, _, err = c.GetOrg("flock")
		is.NoErr(err)
		is.Equal(lastSegment(org.AvatarURL), orgHash)
		// The account can set an avatar again.
		_, err = c.UpdateUserAvatar(gitea.UpdateUserAvatarOption{Image: img})
		is.NoErr(err)
	})
}

// TestSiteDoctorArtifacts uploads Actions artifacts through the artifact
// protocol, removes one finalized artifact's zip and leaves content of two
// artifacts no row names (a zip, an upload under way), and checks that the
// doctor reports the orphans and the artifact whose zip is gone (not the
// whole one, nor the upload under way of a pending one), exits non-zero, and
// that --fix removes the orphans and marks the artifact expired, as Gitea
// treats an expired artifact: listed with "expired": true, its download 404,
// and removed by the expired-artifact cleanup.
func TestSiteDoctorArtifacts(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		is := is.New(t)
		socialAccounts(t, srv, "carol")
		createRepoAs(t, srv, "carol", "ci", true)
		runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
		work := httpGitWork(t, "main")
		httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
		is.NoErr(os.MkdirAll(work+"/.gitea/workflows", 0o755))
		httpGitCommit(t, work, ".gitea/workflows/build.yml", workflowArtifacts, "add build")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		tc := runner.waitTask(t).Context.AsMap()
		runtime, _ := tc["gitea_runtime_token"].(string)
		runID, _ := tc["run_id"].(string)
		ac := artifactClient{srv: srv, token: runtime, run: runID}

		upload := func(name string, finalize bool) int64 {
			t.Helper()
			var created struct {
				SignedUploadURL string `json:"signedUploadUrl"`
			}
			is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": name, "version": 4}, &created).Status, http.StatusOK)
			data := testZip(t, name+".txt", "content of "+name+"\n")
			is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"appendBlock"}}, data).Status, http.StatusCreated)
			if !finalize {
				u, err := url.Parse(created.SignedUploadURL)
				is.NoErr(err)
				id, err := strconv.ParseInt(u.Query().Get("artifactID"), 10, 64)
				is.NoErr(err)
				return id
			}
			var fin struct {
				ArtifactID string `json:"artifactId"`
			}
			is.Equal(ac.call(t, "FinalizeArtifact", map[string]any{"name": name, "size": len(data)}, &fin).Status, http.StatusOK)
			id, err := strconv.ParseInt(fin.ArtifactID, 10, 64)
			is.NoErr(err)
			return id
		}
		kept, lost, pending := upload("kept", true), upload("lost", true), upload("pending", false)
		store := filepath.Join(srv.DataDir, "actions_artifacts")
		zipOf := func(id int64) string {
			return filepath.Join(store, hex.EncodeToString([]byte{byte(id % 256)}), strconv.FormatInt(id, 10)+".zip")
		}
		_, err := os.Stat(filepath.Join(store, "uploads", strconv.FormatInt(pending, 10)))
		is.NoErr(err) // the pending artifact's upload is under way

		args := append([]string{"doctor", "--skip-fsck", "--data-dir", srv.DataDir}, backupDBArgs(srv.DSN)...)
		r := backupDepot(t, bin, args...)
		t.Logf("doctor on a healthy site:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		is.NoErr(os.Remove(zipOf(lost)))
		const orphanZip, orphanUpload = 999999, 999998
		doctorWrite(t, zipOf(orphanZip), testZip(t, "x.txt", "left behind"), time.Minute)
		doctorWrite(t, filepath.Join(store, "uploads", strconv.Itoa(orphanUpload), "append"), []byte("half"), time.Minute)

		r = backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s", r.stdout)
		is.True(r.code != 0)
		is.True(strings.Contains(r.stdout, "blob-orphan: artifact 999999: no Actions artifact row names it\n"))
		is.True(strings.Contains(r.stdout, "blob-orphan: artifact 999998: no Actions artifact row names it\n"))
		is.True(strings.Contains(r.stdout, "blob-missing: artifact "+strconv.FormatInt(lost, 10)+
			`: "lost" of carol/ci run `+runID+": its row names a file that is gone\n"))
		is.True(!strings.Contains(r.stdout, "artifact "+strconv.FormatInt(kept, 10)+":"))
		is.True(!strings.Contains(r.stdout, "artifact "+strconv.FormatInt(pending, 10)+":"))

		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s", r.stdout)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "artifact 999999: no Actions artifact row names it (fixed)"))
		is.True(strings.Contains(r.stdout, "artifact 999998: no Actions artifact row names it (fixed)"))
		is.True(strings.Contains(r.stdout, "a file that is gone; marked expired (fixed)"))
		_, err = os.Stat(zipOf(orphanZip))
		is.True(os.IsNotExist(err))
		_, err = os.Stat(filepath.Join(store, "uploads", strconv.Itoa(orphanUpload)))
		is.True(os.IsNotExist(err))
		_, err = os.Stat(filepath.Join(store, "uploads", strconv.FormatInt(pending, 10)))
		is.NoErr(err) // the upload under way stays

		r = backupDepot(t, bin, args...)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		base := "/repos/carol/ci/actions/artifacts/"
		var a gitea.ActionArtifact
		got := srv.Do("GET", base+strconv.FormatInt(lost, 10), nil, asUser("carol")...)
		is.Equal(got.Status, http.StatusOK)
		got.Decode(t, &a)
		is.True(a.Expired) // answered as an expired artifact
		is.Equal(srv.Do("GET", base+strconv.FormatInt(lost, 10)+"/zip", nil, asUser("carol")...).Status, http.StatusNotFound)
		got = srv.Do("GET", base+strconv.FormatInt(kept, 10), nil, asUser("carol")...)
		got.Decode(t, &a)
		is.True(!a.Expired)
		is.Equal(srv.Do("GET", base+strconv.FormatInt(kept, 10)+"/zip", nil, asUser("carol")...).Status, http.StatusFound)

		admin := srv.AdminClient()
		before := cronTasks(t, admin)["cleanup_artifacts"]
		_, err = admin.RunCronTasks("cleanup_artifacts")
		is.NoErr(err)
		waitCronRuns(t, admin, "cleanup_artifacts", before.ExecTimes+1)
		is.Equal(srv.Do("GET", base+strconv.FormatInt(lost, 10), nil, asUser("carol")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", base+strconv.FormatInt(kept, 10), nil, asUser("carol")...).Status, http.StatusOK)
	})
}
