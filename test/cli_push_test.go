package test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// A push to the built server runs its hooks through bin/depot-hook, the
// small program beside the executable: the ref lands and post-receive's
// bookkeeping (the first branch becomes the default, the repository is no
// longer empty) happens.
func TestCLIPushThroughHookBinary(t *testing.T) {
	is := is.New(t)
	bin := cliBuildDepot(t)
	hookBin := filepath.Join(filepath.Dir(bin), "depot-hook")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	realHook := filepath.Join(t.TempDir(), "real-depot-hook")
	build := exec.CommandContext(ctx, "go", "build", "-o", realHook, "./cmd/depot-hook")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/depot-hook: %v\n%s", err, out)
	}
	// A wrapper in its place records each run, so the test knows which
	// program git ran.
	marker := filepath.Join(t.TempDir(), "runs")
	is.NoErr(os.WriteFile(hookBin, []byte("#!/bin/sh\necho \"$2\" >> '"+marker+"'\nexec '"+realHook+"' \"$@\"\n"), 0o755))

	dir := t.TempDir()
	srv := cliStart(t, bin, nil, "serve", "--data-dir", dir, "--listen", cliFreeAddr(t))
	srv.waitReady(t)
	m := regexp.MustCompile(`administrator account created: username admin, password (\S+)`).FindStringSubmatch(srv.stderrText(t))
	is.True(m != nil) // the administrator's password is printed
	auth := testserver.Basic("admin", m[1])

	body, _ := json.Marshal(gitea.CreateRepoOption{Name: "pushed"})
	req, _ := http.NewRequest(http.MethodPost, srv.url+"/api/v1/user/repos", bytes.NewReader(body))
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	is.NoErr(err)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusCreated)

	work := t.TempDir()
	gitRun(t, work, "init", "-q", "-b", "trunk")
	is.NoErr(os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	gitRun(t, work, "add", ".")
	gitRun(t, work, "commit", "-q", "-m", "first")
	url := strings.Replace(srv.url, "://", "://admin:"+m[1]+"@", 1) + "/admin/pushed.git"
	gitRun(t, work, "push", "-q", url, "trunk")

	st, raw := cliGet(t, srv.url+"/api/v1/repos/admin/pushed", "Authorization", auth)
	is.Equal(st, http.StatusOK)
	var repo gitea.Repository
	is.NoErr(json.Unmarshal(raw, &repo))
	is.Equal(repo.DefaultBranch, "trunk") // set by post-receive through depot-hook
	is.True(!repo.Empty)
	runs, err := os.ReadFile(marker)
	is.NoErr(err)
	is.Equal(string(runs), "pre-receive\npost-receive\n") // both hooks ran the small program
}
