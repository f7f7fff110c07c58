package test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// workflowArtifacts is a workflow of one job, which uploads artifacts.
const workflowArtifacts = `name: Build
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
`

// artifactService is the v4 artifact protocol's twirp service path.
const artifactService = "/twirp/github.actions.results.api.v1.ArtifactService/"

// artifactClient calls the artifact protocol as actions/upload-artifact@v4
// does from a task, with the task's runtime token.
type artifactClient struct {
	srv   *testserver.Server
	token string
	run   string
}

// call posts a twirp JSON request and decodes the answer into out.
func (c artifactClient) call(t *testing.T, method string, body map[string]any, out any) testserver.Response {
	t.Helper()
	if _, ok := body["workflow_run_backend_id"]; !ok {
		body["workflow_run_backend_id"] = c.run
		body["workflow_job_run_backend_id"] = "1"
	}
	var h []string
	if c.token != "" {
		h = []string{"Authorization", "Bearer " + c.token}
	}
	r := c.srv.Do("POST", c.srv.URL+artifactService+method, body, h...)
	if out != nil && r.Status == http.StatusOK {
		r.Decode(t, out)
	}
	return r
}

// put sends a body to a signed upload URL with extra query parameters.
func artifactPut(t *testing.T, srv *testserver.Server, signed string, extra url.Values, body []byte) testserver.Response {
	t.Helper()
	u, err := url.Parse(signed)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for k, v := range extra {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	return srv.Do("PUT", u.String(), string(body))
}

// testZip is a zip of one file.
func testZip(t *testing.T, name, content string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zipFile reads one file of a zip.
func zipFile(t *testing.T, data []byte, name string) string {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("zip: %v", err)
	}
	f, err := r.Open(name)
	if err != nil {
		t.Fatalf("zip entry %s: %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestActionArtifacts runs a task that uploads artifacts through the v4
// artifact protocol (runtime token, signed upload URLs in blocks and in
// appended chunks, finalize, list, signed download), then reads, downloads
// through the signed zip redirect, and deletes them through the API with its
// access rules; the task's GITEA_TOKEN clones the private repository while
// the task runs and nothing after; expired artifacts are cleaned up with
// their bytes; on both backends.
func TestActionArtifacts(t *testing.T) {
	t.Parallel()
	backends(t, testActionArtifacts)
}

func testActionArtifacts(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "reed", "walt", "sam")
	createRepoAs(t, srv, "carol", "ci", true)
	createRepoAs(t, srv, "carol", "other", true)
	socialCollab(t, srv, "carol", "ci", "reed", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "ci", "walt", gitea.AccessModeWrite)

	runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	if err := os.MkdirAll(work+"/.gitea/workflows", 0o755); err != nil {
		t.Fatal(err)
	}
	httpGitCommit(t, work, ".gitea/workflows/build.yml", workflowArtifacts, "add build")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	task := runner.waitTask(t)
	tc := task.Context.AsMap()
	token, _ := tc["token"].(string)
	runtime, _ := tc["gitea_runtime_token"].(string)
	runID, _ := tc["run_id"].(string)
	if len(token) != 40 || runtime == "" || runID == "" {
		t.Fatalf("task context token %q, runtime token %q, run %q", token, runtime, runID)
	}
	is.New(t).Equal(task.Secrets["GITEA_TOKEN"], token)
	is.New(t).Equal(tc["gitea_token"], token)
	ac := artifactClient{srv: srv, token: runtime, run: runID}

	t.Run("the task token reads its own repository only while the task runs", func(t *testing.T) {
		is := is.New(t)
		clone := httpGitClone(t, httpGitURL(srv, "carol", "ci", "ci", token))
		_, err := os.Stat(filepath.Join(clone, ".gitea/workflows/build.yml"))
		is.NoErr(err)
		is.Equal(srv.Do("GET", "/repos/carol/ci", nil, "Authorization", "token "+token).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/repos/carol/other", nil, "Authorization", "token "+token).Status, http.StatusNotFound)
		httpGitFails(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "carol", "other", "ci", token), filepath.Join(t.TempDir(), "x"))
	})

	content := testZip(t, "hello.txt", strings.Repeat("hello artifact\n", 2000))
	sum := sha256.Sum256(content)
	var distID int64

	t.Run("upload in blocks, finalize, list and download", func(t *testing.T) {
		is := is.New(t)
		var created struct {
			Ok              bool   `json:"ok"`
			SignedUploadURL string `json:"signedUploadUrl"`
		}
		r := ac.call(t, "CreateArtifact", map[string]any{"name": "dist", "version": 4}, &created)
		is.Equal(r.Status, http.StatusOK)
		is.True(created.Ok)
		is.True(strings.Contains(created.SignedUploadURL, "sig="))
		half := len(content) / 2
		ids := []string{base64.StdEncoding.EncodeToString([]byte("block-1")), base64.StdEncoding.EncodeToString([]byte("block-2"))}
		// Blocks may arrive in any order: the block list orders them.
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"block"}, "blockid": {ids[1]}}, content[half:]).Status, http.StatusCreated)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"block"}, "blockid": {ids[0]}}, content[:half]).Status, http.StatusCreated)
		list := `<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>` + ids[0] + `</Latest><Latest>` + ids[1] + `</Latest></BlockList>`
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"blocklist"}}, []byte(list)).Status, http.StatusCreated)

		var fin struct {
			Ok         bool   `json:"ok"`
			ArtifactID string `json:"artifactId"`
		}
		r = ac.call(t, "FinalizeArtifact", map[string]any{"name": "dist", "size": strconv.Itoa(len(content)),
			"hash": "sha256:" + hex.EncodeToString(sum[:])}, &fin)
		is.Equal(r.Status, http.StatusOK)
		is.True(fin.Ok)
		distID, _ = strconv.ParseInt(fin.ArtifactID, 10, 64)
		is.True(distID > 0)

		var listed struct {
			Artifacts []struct {
				DatabaseID string `json:"databaseId"`
				Name       string `json:"name"`
				Size       string `json:"size"`
			} `json:"artifacts"`
		}
		is.Equal(ac.call(t, "ListArtifacts", map[string]any{"nameFilter": "dist"}, &listed).Status, http.StatusOK)
		is.Equal(len(listed.Artifacts), 1)
		is.Equal(listed.Artifacts[0].DatabaseID, fin.ArtifactID)
		is.Equal(listed.Artifacts[0].Size, strconv.Itoa(len(content)))

		var signed struct {
			SignedURL string `json:"signedUrl"`
		}
		is.Equal(ac.call(t, "GetSignedArtifactURL", map[string]any{"name": "dist"}, &signed).Status, http.StatusOK)
		got := srv.Do("GET", signed.SignedURL, nil)
		is.Equal(got.Status, http.StatusOK)
		is.True(bytes.Equal(got.Body, content))
		is.Equal(ac.call(t, "GetSignedArtifactURL", map[string]any{"name": "absent"}, nil).Status, http.StatusNotFound)
	})

	t.Run("upload in appended chunks; a wrong digest is refused", func(t *testing.T) {
		is := is.New(t)
		var created struct {
			SignedUploadURL string `json:"signedUploadUrl"`
		}
		is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": "logs", "version": 4}, &created).Status, http.StatusOK)
		logs := testZip(t, "log.txt", "all good\n")
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"appendBlock"}}, logs[:10]).Status, http.StatusCreated)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"comp": {"appendBlock"}}, logs[10:]).Status, http.StatusCreated)
		is.Equal(ac.call(t, "FinalizeArtifact", map[string]any{"name": "logs", "hash": "sha256:" + strings.Repeat("0", 64)}, nil).Status, http.StatusBadRequest)

		is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": "logs", "version": 4}, &created).Status, http.StatusOK)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, nil, logs).Status, http.StatusCreated)
		is.Equal(ac.call(t, "FinalizeArtifact", map[string]any{"name": "logs", "size": len(logs)}, nil).Status, http.StatusOK)
	})

	t.Run("protocol refusals", func(t *testing.T) {
		is := is.New(t)
		anon := artifactClient{srv: srv, run: runID}
		is.Equal(anon.call(t, "ListArtifacts", map[string]any{}, nil).Status, http.StatusUnauthorized)
		forged := artifactClient{srv: srv, run: runID, token: runtime[:len(runtime)-4] + "AAAA"}
		is.Equal(forged.call(t, "ListArtifacts", map[string]any{}, nil).Status, http.StatusUnauthorized)
		is.Equal(ac.call(t, "ListArtifacts", map[string]any{"workflow_run_backend_id": "999999"}, nil).Status, http.StatusForbidden)
		is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": "a/b"}, nil).Status, http.StatusUnprocessableEntity)
		r := srv.Do("POST", srv.URL+artifactService+"ListArtifacts", "{not json", "Authorization", "Bearer "+runtime)
		is.Equal(r.Status, http.StatusBadRequest)
		// A signed upload URL with its signature changed.
		var created struct {
			SignedUploadURL string `json:"signedUploadUrl"`
		}
		is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": "forged"}, &created).Status, http.StatusOK)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"sig": {"AAAA"}}, []byte("x")).Status, http.StatusUnauthorized)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, url.Values{"artifactID": {strconv.FormatInt(distID, 10)}}, []byte("x")).Status, http.StatusUnauthorized)
	})

	base := "/repos/carol/ci/actions/artifacts"
	t.Run("list and get through the API", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", base, nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusOK)
		var list gitea.ActionArtifactsResponse
		r.Decode(t, &list)
		is.Equal(list.TotalCount, int64(2))      // dist and logs; "forged" was never finalized
		is.Equal(list.Artifacts[0].Name, "logs") // newest first
		is.Equal(r.Header.Get("X-Total-Count"), "2")

		r = srv.Do("GET", "/repos/carol/ci/actions/runs/"+runID+"/artifacts?name=dist", nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &list)
		is.Equal(list.TotalCount, int64(1))
		a := list.Artifacts[0]
		is.Equal(a.ID, distID)
		is.Equal(a.SizeInBytes, int64(len(content)))
		is.Equal(strconv.FormatInt(a.WorkflowRun.ID, 10), runID)
		is.True(!a.Expired)
		is.True(a.ExpiresAt.After(time.Now().Add(80 * 24 * time.Hour)))
		is.True(strings.HasSuffix(a.ArchiveDownloadURL, base+"/"+strconv.FormatInt(distID, 10)+"/zip"))

		r = srv.Do("GET", base+"/"+strconv.FormatInt(distID, 10), nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusOK)
		var one gitea.ActionArtifact
		r.Decode(t, &one)
		is.Equal(one.Name, "dist")

		is.Equal(srv.Do("GET", base, nil).Status, http.StatusNotFound) // anonymous on a private repository
		is.Equal(srv.Do("GET", base+"/"+strconv.FormatInt(distID, 10), nil, asUser("sam")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", base+"/999999", nil, asUser("reed")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/runs/999999/artifacts", nil, asUser("reed")...).Status, http.StatusNotFound)
	})

	t.Run("download the zip through the signed redirect", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", base+"/"+strconv.FormatInt(distID, 10)+"/zip", nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusFound)
		loc := r.Header.Get("Location")
		is.True(strings.Contains(loc, base+"/"+strconv.FormatInt(distID, 10)+"/zip/raw?sig="))
		got := srv.Do("GET", loc, nil) // no credentials: the signature is one
		is.Equal(got.Status, http.StatusOK)
		is.Equal(got.Header.Get("Content-Type"), "application/zip")
		is.Equal(zipFile(t, got.Body, "hello.txt"), strings.Repeat("hello artifact\n", 2000))

		u, _ := url.Parse(loc)
		q := u.Query()
		// Change the signature's first character (to another one: a
		// signature that already began with "A" was left as it was).
		sig := q.Get("sig")
		first := "A"
		if sig[0] == 'A' {
			first = "B"
		}
		q.Set("sig", first+sig[1:])
		u.RawQuery = q.Encode()
		is.Equal(srv.Do("GET", u.String(), nil).Status, http.StatusUnauthorized) // forged
		q = u.Query()
		q.Del("sig")
		u.RawQuery = q.Encode()
		is.Equal(srv.Do("GET", u.String(), nil).Status, http.StatusUnauthorized) // missing

		// Signed with the site's key but expired an hour ago; and a signature
		// of this artifact does not open another.
		key, err := security.OpenSiteKey(filepath.Join(srv.DataDir, "site.key"))
		is.NoErr(err)
		signer := security.NewActionsSigner(key)
		old := actions.SignedArtifactURL{ArtifactID: distID, Expires: time.Now().Add(-time.Hour).Truncate(time.Second)}
		old.Sig = signer.SignURL(old.Message(actions.ArtifactRawEndpoint))
		raw := srv.API + base + "/" + strconv.FormatInt(distID, 10) + "/zip/raw?sig=" + url.QueryEscape(old.Sig) +
			"&expires=" + strconv.FormatInt(old.Expires.Unix(), 10)
		r = srv.Do("GET", raw, nil)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Message(), "signature expired")
		other := strings.Replace(loc, "/artifacts/"+strconv.FormatInt(distID, 10)+"/", "/artifacts/"+strconv.FormatInt(distID+1, 10)+"/", 1)
		is.Equal(srv.Do("GET", other, nil).Status, http.StatusUnauthorized)
	})

	t.Run("delete needs write access", func(t *testing.T) {
		is := is.New(t)
		path := base + "/" + strconv.FormatInt(distID, 10)
		is.Equal(srv.Do("DELETE", path, nil, asUser("reed")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("DELETE", path, nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", path, nil, asUser("walt")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("GET", path, nil, asUser("reed")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", path, nil, asUser("walt")...).Status, http.StatusNotFound)
	})

	t.Run("expired artifacts are cleaned up with their bytes", func(t *testing.T) {
		is := is.New(t)
		var created struct {
			SignedUploadURL string `json:"signedUploadUrl"`
		}
		expires := time.Now().Add(2 * time.Second).UTC()
		is.Equal(ac.call(t, "CreateArtifact", map[string]any{"name": "short", "expires_at": expires.Format(time.RFC3339Nano)}, &created).Status, http.StatusOK)
		is.Equal(artifactPut(t, srv, created.SignedUploadURL, nil, content).Status, http.StatusCreated)
		var fin struct {
			ArtifactID string `json:"artifactId"`
		}
		is.Equal(ac.call(t, "FinalizeArtifact", map[string]any{"name": "short"}, &fin).Status, http.StatusOK)
		id, _ := strconv.ParseInt(fin.ArtifactID, 10, 64)
		blob := filepath.Join(srv.DataDir, "actions_artifacts", hex.EncodeToString([]byte{byte(id % 256)}), fin.ArtifactID+".zip")
		_, err := os.Stat(blob)
		is.NoErr(err)
		time.Sleep(time.Until(expires) + 100*time.Millisecond)

		r := srv.Do("GET", base+"/"+fin.ArtifactID, nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusOK)
		var a gitea.ActionArtifact
		r.Decode(t, &a)
		is.True(a.Expired)
		is.Equal(srv.Do("GET", base+"/"+fin.ArtifactID+"/zip", nil, asUser("reed")...).Status, http.StatusNotFound)

		admin := srv.AdminClient()
		before := cronTasks(t, admin)["cleanup_artifacts"]
		_, err = admin.RunCronTasks("cleanup_artifacts")
		is.NoErr(err)
		waitCronRuns(t, admin, "cleanup_artifacts", before.ExecTimes+1)
		is.Equal(srv.Do("GET", base+"/"+fin.ArtifactID, nil, asUser("reed")...).Status, http.StatusNotFound)
		_, err = os.Stat(blob)
		is.True(os.IsNotExist(err))
		// The unexpired one stays.
		r = srv.Do("GET", base, nil, asUser("reed")...)
		var list gitea.ActionArtifactsResponse
		r.Decode(t, &list)
		is.Equal(list.TotalCount, int64(1))
	})

	t.Run("once the task finished its tokens are refused", func(t *testing.T) {
		is := is.New(t)
		var signed struct {
			SignedURL string `json:"signedUrl"`
		}
		is.Equal(ac.call(t, "GetSignedArtifactURL", map[string]any{"name": "logs"}, &signed).Status, http.StatusOK)
		_, err := runner.client.UpdateTask(t.Context(), runnerRequest(runner, &runnerv1.UpdateTaskRequest{
			State: &runnerv1.TaskState{Id: task.Id, Result: runnerv1.Result_RESULT_SUCCESS}}))
		is.NoErr(err)
		httpGitFails(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "carol", "ci", "ci", token), filepath.Join(t.TempDir(), "x"))
		is.Equal(srv.Do("GET", "/repos/carol/ci", nil, "Authorization", "token "+token).Status, http.StatusUnauthorized)
		is.Equal(ac.call(t, "ListArtifacts", map[string]any{}, nil).Status, http.StatusUnauthorized)
		is.Equal(srv.Do("GET", signed.SignedURL, nil).Status, http.StatusUnauthorized)
		// The artifacts outlive the task.
		r := srv.Do("GET", base, nil, asUser("reed")...)
		is.Equal(r.Status, http.StatusOK)
		var list gitea.ActionArtifactsResponse
		r.Decode(t, &list)
		is.Equal(list.TotalCount, int64(1))
	})
}
