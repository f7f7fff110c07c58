package test

import (
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestHTTPGitPushRefusesNonUTF8RefName: a push creating a branch whose
// name is not valid UTF-8 is refused and leaves nothing, while a name in
// UTF-8 goes through. The push hook hands ref updates on as JSON, which
// would have replaced the bytes, so the checks judged another name than
// git wrote (found by FuzzRunHookInput).
func TestHTTPGitPushRefusesNonUTF8RefName(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	work := httpGitClone(t, httpGitURL(srv, "alice", "code", "alice", userPassword))

	out := httpGitFails(t, work, "push", "origin", "HEAD:refs/heads/a\x80b")
	is.True(strings.Contains(out, `malformed ref update`))
	is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/a\x80b"), "")

	httpGitOK(t, work, "push", "-q", "origin", "HEAD:refs/heads/é")
	is.True(httpGitRef(t, srv, "alice", "code", "refs/heads/é") != "")
}
