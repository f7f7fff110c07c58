package githttp

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// countingGit writes a git executable that notes each of its runs in a
// file before running the real git, and returns both paths.
func countingGit(t *testing.T) (bin, runs string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runs = filepath.Join(dir, "runs")
	bin = filepath.Join(dir, "git")
	script := "#!/bin/sh\necho \"$*\" >> '" + runs + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, runs
}

// gitRuns counts the runs noted in runs.
func gitRuns(t *testing.T, runs string) int {
	t.Helper()
	data, err := os.ReadFile(runs)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

func TestProtocolV2FactsKeptUntilConfigChanges(t *testing.T) {
	is := is.New(t)
	bin, runs := countingGit(t)
	r, err := NewRunner(RunnerConfig{Git: bin, HooksDir: filepath.Join(t.TempDir(), "hooks"), HookBinary: fakeHookBinary(t)})
	is.NoErr(err)
	h := &Handler{runner: r, v2: newV2Cache(r.siteFiles()), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	repo := filepath.Join(t.TempDir(), "r.git")
	out, err := exec.Command("git", "init", "-q", "--bare", repo).CombinedOutput()
	is.True(err == nil && len(out) == 0)
	inv := Invocation{Service: repository.ServiceUploadPack, Dir: repo, Protocol: "version=2"}
	ctx := context.Background()

	f := h.protocolV2(ctx, inv)
	is.True(f != nil)
	is.True(f.lsRefs && f.unborn)
	is.True(strings.HasPrefix(string(f.advertisement), "000eversion 2\n"))
	asked := gitRuns(t, runs)
	is.Equal(asked, 2) // the advertisement and the configuration
	is.Equal(h.protocolV2(ctx, inv), f)
	is.Equal(gitRuns(t, runs), asked) // kept: git is not asked again

	// Hidden refs leave ls-refs to git; the change is seen at once.
	out, err = exec.Command("git", "--git-dir="+repo, "config", "uploadpack.hideRefs", "refs/pull/").CombinedOutput()
	is.True(err == nil && len(out) == 0)
	g := h.protocolV2(ctx, inv)
	is.True(g != nil && !g.lsRefs)
	is.Equal(gitRuns(t, runs), asked+2)

	// Another repository has its own entry.
	other := filepath.Join(t.TempDir(), "o.git")
	out, err = exec.Command("git", "init", "-q", "--bare", other).CombinedOutput()
	is.True(err == nil && len(out) == 0)
	o := h.protocolV2(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: other, Protocol: "version=2"})
	is.True(o != nil && o.lsRefs)

	// ls-refs is answered without git where git would answer it plainly;
	// anything else is handed back whole, for git.
	h.refs = fixedWireRefs{head: &ports.GitWireRef{Name: "HEAD", SymrefTarget: "refs/heads/main"}}
	lsRefs := func(dir, body string) (string, bool) {
		rec := httptest.NewRecorder()
		rest, answered := h.lsRefs(rec, httptest.NewRequest("POST", "/a/r.git/git-upload-pack", nil), &transport.Session{},
			Invocation{Service: repository.ServiceUploadPack, Dir: dir, Protocol: "version=2"}, strings.NewReader(body))
		if answered {
			is.Equal(rec.Header().Get("Content-Type"), "application/x-git-upload-pack-result")
			return rec.Body.String(), true
		}
		data, err := io.ReadAll(rest)
		is.NoErr(err)
		return string(data), false
	}
	asked = gitRuns(t, runs)
	got, answered := lsRefs(other, lsRefsPlain("symrefs", "unborn"))
	is.True(answered)
	is.Equal(got, pkt("unborn HEAD symref-target:refs/heads/main\n")+"0000")
	is.Equal(gitRuns(t, runs), asked) // no git
	for _, c := range []struct{ dir, body string }{
		{other, pkt("command=fetch\n") + pkt("agent=git/2.39.5\n") + "0001" + pkt("done\n") + "0000"},
		{other, lsRefsPlain("bogus")},
		{repo, lsRefsPlain("symrefs")}, // hidden refs
	} {
		got, answered := lsRefs(c.dir, c.body)
		is.True(!answered)
		is.Equal(got, c.body)
	}

	// A protocol value git does not take for version 2 is not kept.
	is.Equal(h.protocolV2(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: repo, Protocol: "version=02"}), nil)
}

// fixedWireRefs lists the same refs for every repository.
type fixedWireRefs struct {
	head *ports.GitWireRef
	refs []ports.GitWireRef
}

func (f fixedWireRefs) WireRefs(context.Context, ports.RepoPath, []string, bool) (*ports.GitWireRef, []ports.GitWireRef, error) {
	return f.head, f.refs, nil
}
