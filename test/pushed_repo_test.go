package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/test/testserver"
)

// pushedRepo creates the repository opt describes, auto-initialised,
// through its owner's client c; lets work add commits, branches, tags or
// notes in a clone of it; and pushes refspecs with git straight into the
// bare repository, so that no server cache has seen the pushed objects. It
// returns the clone.
func pushedRepo(t *testing.T, srv *testserver.Server, c *gitea.Client, opt gitea.CreateRepoOption,
	work func(w string), refspecs ...string) string {
	t.Helper()
	opt.AutoInit = true
	owner := createRepo(t, c, opt).Owner.UserName
	w := cloneRepo(t, srv, owner, opt.Name)
	work(w)
	gitRun(t, w, append([]string{"push", "-q", repoDir(srv, owner, opt.Name)}, refspecs...)...)
	return w
}
