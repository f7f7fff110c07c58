package test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// The built server started the way `make run` starts it, with a relative
// data directory (`--data-dir data`, resolved against its working
// directory), runs its push hooks: the first push to an empty repository
// makes it non-empty with the pushed branch as its default, and the
// contents API finds the pushed file. Before the data directory was made
// absolute, git was handed a relative core.hooksPath inside the bare
// repository and skipped every hook without a word.
func TestServeRelativeDataDirRunsPushHooks(t *testing.T) {
	is := is.New(t)
	bin := cliBuildDepot(t)
	srv := cliStart(t, bin, nil, "serve", "--data-dir", "data", "--listen", cliFreeAddr(t))
	srv.waitReady(t)
	pw := srv.adminPassword(t)

	c, err := gitea.NewClient(srv.url, gitea.SetBasicAuth("admin", pw))
	is.NoErr(err)
	createRepo(t, c, gitea.CreateRepoOption{Name: "first"})

	work := t.TempDir()
	gitRun(t, work, "init", "-q", "-b", "trunk")
	is.NoErr(os.WriteFile(filepath.Join(work, "hello.txt"), []byte("hello\n"), 0o644))
	gitRun(t, work, "add", ".")
	gitRun(t, work, "commit", "-q", "-m", "first")
	url := strings.Replace(srv.url, "://", "://admin:"+pw+"@", 1) + "/admin/first.git"
	gitRun(t, work, "push", "-q", url, "trunk")

	repo, _, err := c.GetRepo("admin", "first")
	is.NoErr(err)
	is.True(!repo.Empty)                  // post-receive ran
	is.Equal(repo.DefaultBranch, "trunk") // the first pushed branch became the default
	br, _, err := c.GetRepoBranch("admin", "first", repo.DefaultBranch)
	is.NoErr(err) // and that branch exists
	is.Equal(br.Name, "trunk")
	file, _, err := c.GetContents("admin", "first", "", "hello.txt")
	is.NoErr(err) // the contents API reads the default branch
	is.Equal(file.Type, "file")
	is.Equal(file.Path, "hello.txt")

	// The data landed under the server's working directory, the hooks too.
	hooks := filepath.Join(filepath.Dir(srv.stderrPath), "data", "hooks", "post-receive")
	_, err = os.Stat(hooks)
	is.NoErr(err)
	is.Equal(srv.stop(t), 0)
}

// adminPasswordRE finds the first administrator's password in the start-up banner.
var adminPasswordRE = regexp.MustCompile(`administrator account created: username admin, password (\S+)`)

// adminPassword returns the password the first start printed for "admin",
// failing the test when none was printed.
func (p *cliProc) adminPassword(t *testing.T) string {
	t.Helper()
	log := p.stderrText(t)
	m := adminPasswordRE.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no administrator password in the log:\n%s", log)
	}
	return m[1]
}
