package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// tagPusher is one account's way to acme/code: a clone whose origin signs
// in as it, and the runner that talks to the server.
type tagPusher struct {
	name string
	work string
	run  httpGitRunner
}

// tagPusherHTTP clones acme/code over HTTP as name.
func tagPusherHTTP(t *testing.T, srv *testserver.Server, name string) tagPusher {
	t.Helper()
	return tagPusher{name: name, run: httpGitCmd,
		work: httpGitClone(t, httpGitURL(srv, "acme", "code", name, userPassword))}
}

// tag makes a lightweight tag in the clone at its HEAD.
func (p tagPusher) tag(t *testing.T, tag string) {
	t.Helper()
	httpGitOK(t, p.work, "tag", "-f", tag)
}

// pushes pushes tag (a refspec) and fails the test when git fails.
func (p tagPusher) pushes(t *testing.T, refspec string) {
	t.Helper()
	p.run.OK(t, p.work, "push", "-q", "--force", "origin", refspec)
}

// refused pushes refspec, expects git to fail, and checks that the server's
// refusal names the tag on the client's remote: lines.
func (p tagPusher) refused(t *testing.T, refspec, tag string) {
	t.Helper()
	out := p.run.Fails(t, p.work, "push", "--force", "origin", refspec)
	if !strings.Contains(out, "remote: depot: Tag "+tag+" is protected") {
		t.Fatalf("push of %s as %s: the refusal does not name the tag:\n%s", refspec, p.name, out)
	}
}

// TestTagProtectionPushes pushes tags with the git CLI over HTTP against
// a rule for v* (a user and a team allowed) and a regular expression rule:
// a writer outside the allowlists may not create, move or delete a
// protected tag, and a refused push writes nothing.
func TestTagProtectionPushes(t *testing.T) {
	t.Parallel()
	backends(t, tagProtectionPushes)
}

// tagProtectionPushes runs TestTagProtectionPushes's scenario on one backend.
func tagProtectionPushes(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := tagProtOrgRepo(t, srv)
	is := is.New(t)
	rule, _, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "v*", WhitelistUsernames: []string{"trusted"}, WhitelistTeams: []string{"devs"}})
	is.NoErr(err)
	_, _, err = alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "/^rc-[0-9]+$/", WhitelistUsernames: []string{"trusted"}})
	is.NoErr(err)

	writer := tagPusherHTTP(t, srv, "writer")
	trusted := tagPusherHTTP(t, srv, "trusted")
	dev := tagPusherHTTP(t, srv, "dev")
	owner := tagPusherHTTP(t, srv, "alice")
	head := httpGitRef(t, srv, "acme", "code", "refs/heads/main")
	ref := func(tag string) string { return httpGitRef(t, srv, "acme", "code", "refs/tags/"+tag) }

	t.Run("CreateRefusedOutsideTheAllowlists", func(t *testing.T) {
		is := is.New(t)
		writer.tag(t, "v1.0")
		writer.refused(t, "refs/tags/v1.0", "v1.0")
		is.Equal(ref("v1.0"), "") // nothing written
		// Administrators get no exemption, as in Gitea.
		owner.tag(t, "v1.0")
		owner.refused(t, "refs/tags/v1.0", "v1.0")
		// One refused tag refuses the whole push, branches included.
		httpGitOK(t, writer.work, "tag", "free-1")
		out := writer.run.Fails(t, writer.work, "push", "origin", "refs/tags/free-1", "refs/tags/v1.0", "HEAD:refs/heads/side")
		is.True(strings.Contains(out, "Tag v1.0 is protected"))
		is.Equal(ref("free-1"), "")
		is.Equal(httpGitRef(t, srv, "acme", "code", "refs/heads/side"), "")
		httpGitFsck(t, srv, "acme", "code")
	})

	t.Run("UnprotectedTagsAreFree", func(t *testing.T) {
		is := is.New(t)
		writer.tag(t, "latest")
		writer.pushes(t, "refs/tags/latest")
		is.Equal(ref("latest"), head)
		writer.pushes(t, ":refs/tags/latest")
		is.Equal(ref("latest"), "")
	})

	t.Run("AllowedByUserAndByTeam", func(t *testing.T) {
		is := is.New(t)
		trusted.tag(t, "v1.0")
		trusted.pushes(t, "refs/tags/v1.0")
		is.Equal(ref("v1.0"), head)
		dev.tag(t, "v1.1")
		dev.pushes(t, "refs/tags/v1.1")
		is.Equal(ref("v1.1"), head)
		// An annotated tag is a tag like any other.
		httpGitOK(t, dev.work, "tag", "-a", "-m", "release", "v1.2")
		dev.pushes(t, "refs/tags/v1.2")
		is.True(ref("v1.2") != "")
	})

	t.Run("MoveAndDeleteRefused", func(t *testing.T) {
		is := is.New(t)
		writer.run.OK(t, writer.work, "fetch", "-q", "origin", "--tags")
		writer.refused(t, ":refs/tags/v1.0", "v1.0")
		is.Equal(ref("v1.0"), head) // still there
		next := httpGitCommit(t, writer.work, "next.txt", "next\n", "next")
		writer.pushes(t, "HEAD:refs/heads/next")
		writer.tag(t, "v1.0")
		writer.refused(t, "refs/tags/v1.0", "v1.0")
		is.Equal(ref("v1.0"), head) // not moved
		// The allowlisted user moves and deletes it.
		trusted.run.OK(t, trusted.work, "fetch", "-q", "origin", "next")
		httpGitOK(t, trusted.work, "tag", "-f", "v1.0", next)
		trusted.pushes(t, "refs/tags/v1.0")
		is.Equal(ref("v1.0"), next)
		trusted.pushes(t, ":refs/tags/v1.0")
		is.Equal(ref("v1.0"), "")
	})

	t.Run("RegularExpression", func(t *testing.T) {
		is := is.New(t)
		writer.tag(t, "rc-12")
		writer.refused(t, "refs/tags/rc-12", "rc-12")
		writer.tag(t, "rc-12a") // does not match ^rc-[0-9]+$
		writer.pushes(t, "refs/tags/rc-12a")
		is.True(ref("rc-12a") != "")
		dev.tag(t, "rc-13") // devs are not allowed by this rule
		dev.refused(t, "refs/tags/rc-13", "rc-13")
		trusted.tag(t, "rc-12")
		trusted.pushes(t, "refs/tags/rc-12")
		is.True(ref("rc-12") != "")
	})

	t.Run("RuleChangesApplyAtOnce", func(t *testing.T) {
		is := is.New(t)
		// The rules are cached per repository; a change drops the cache.
		writer.tag(t, "v2.0")
		writer.refused(t, "refs/tags/v2.0", "v2.0")
		_, _, err := alice.EditTagProtection("acme", "code", rule.ID, gitea.EditTagProtectionOption{
			WhitelistUsernames: []string{"trusted", "writer"}})
		is.NoErr(err)
		writer.pushes(t, "refs/tags/v2.0")
		is.True(ref("v2.0") != "")
		pattern := "x*"
		_, _, err = alice.EditTagProtection("acme", "code", rule.ID, gitea.EditTagProtectionOption{
			NamePattern: &pattern, WhitelistUsernames: []string{"trusted"}})
		is.NoErr(err)
		owner.tag(t, "v2.1")
		owner.pushes(t, "refs/tags/v2.1")
		owner.tag(t, "x1")
		owner.refused(t, "refs/tags/x1", "x1")
		_, err = alice.DeleteTagProtection("acme", "code", rule.ID)
		is.NoErr(err)
		owner.pushes(t, "refs/tags/x1")
		is.Equal(ref("x1"), head)
		// A team membership change needs no rule change.
		_, err = alice.AddTeamMember(tagProtTeamID(t, alice, "devs"), "writer")
		is.NoErr(err)
		_, _, err = alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
			NamePattern: "team-*", WhitelistTeams: []string{"devs"}})
		is.NoErr(err)
		writer.tag(t, "team-1")
		writer.pushes(t, "refs/tags/team-1")
		_, err = alice.RemoveTeamMember(tagProtTeamID(t, alice, "devs"), "writer")
		is.NoErr(err)
		writer.tag(t, "team-2")
		writer.refused(t, "refs/tags/team-2", "team-2")
	})
}

// tagProtTeamID finds acme's team by name.
func tagProtTeamID(t *testing.T, c *gitea.Client, name string) int64 {
	t.Helper()
	res, _, err := c.SearchOrgTeams("acme", &gitea.SearchTeamsOptions{Query: name})
	if err != nil || len(res) == 0 {
		t.Fatalf("find team %s: %v", name, err)
	}
	return res[0].ID
}

// TestTagProtectionTagRoutes creates and deletes protected tags through
// POST and DELETE R/tags: Gitea's 422s for a writer outside the
// allowlists, its 409 and 404 first when the tag exists or does not.
func TestTagProtectionTagRoutes(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice := tagProtOrgRepo(t, srv)
	is := is.New(t)
	_, _, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "v*", WhitelistUsernames: []string{"trusted"}, WhitelistTeams: []string{"devs"}})
	is.NoErr(err)
	ref := func(tag string) string { return httpGitRef(t, srv, "acme", "code", "refs/tags/"+tag) }
	create := func(who, tag string) testserver.Response {
		return srv.Do("POST", "/repos/acme/code/tags", map[string]any{"tag_name": tag, "message": "m"}, basicAs(who)...)
	}
	del := func(who, tag string) testserver.Response {
		return srv.Do("DELETE", "/repos/acme/code/tags/"+tag, nil, basicAs(who)...)
	}

	assertAPIError(t, create("writer", "v1.0"), http.StatusUnprocessableEntity, "user not allowed to create protected tag")
	is.Equal(ref("v1.0"), "")
	assertAPIError(t, create("alice", "v1.0"), http.StatusUnprocessableEntity, "user not allowed to create protected tag")
	assertAPIError(t, del("writer", "v9"), http.StatusNotFound, "tag doesn't exist: v9") // absent: 404 first

	r := create("trusted", "v1.0")
	is.Equal(r.Status, http.StatusCreated)
	var tag gitea.Tag
	r.Decode(t, &tag)
	is.Equal(tag.Name, "v1.0")
	is.Equal(create("dev", "v1.1").Status, http.StatusCreated) // through the team
	is.Equal(create("writer", "other").Status, http.StatusCreated)

	assertAPIError(t, create("writer", "v1.0"), http.StatusConflict, "tag already exists [name: v1.0]") // exists: 409 first
	assertAPIError(t, del("writer", "v1.0"), http.StatusUnprocessableEntity, "user not allowed to delete protected tag")
	is.True(ref("v1.0") != "")
	is.Equal(del("writer", "other").Status, http.StatusNoContent)
	is.Equal(del("trusted", "v1.0").Status, http.StatusNoContent)
	is.Equal(ref("v1.0"), "")
	is.Equal(del("dev", "v1.1").Status, http.StatusNoContent)
}

// TestTagProtectionSSHPushes pushes protected tags over SSH: with an
// account's key the rules judge the account; a deploy key pushes as the
// repository's owner (the organisation, in no allowlist).
func TestTagProtectionSSHPushes(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSSH())
	alice := tagProtOrgRepo(t, srv)
	is := is.New(t)
	_, _, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "v*", WhitelistUsernames: []string{"trusted"}})
	is.NoErr(err)
	ref := func(tag string) string { return httpGitRef(t, srv, "acme", "code", "refs/tags/"+tag) }
	head := httpGitRef(t, srv, "acme", "code", "refs/heads/main")
	ssh := func(name string, key sshGitKey) tagPusher {
		return tagPusher{name: name, run: sshGitRunner(srv, key), work: sshGitClone(t, srv, key, "acme", "code")}
	}

	writerKey, _ := sshGitUserKey(t, srv.Client(gitea.SetBasicAuth("writer", userPassword)), "writer")
	trustedKey, _ := sshGitUserKey(t, srv.Client(gitea.SetBasicAuth("trusted", userPassword)), "trusted")
	deployKey, _ := sshGitDeployKey(t, alice, "acme", "code", "ci", false)
	writer, trusted, deploy := ssh("writer", writerKey), ssh("trusted", trustedKey), ssh("deploy key", deployKey)

	writer.tag(t, "v1.0")
	writer.refused(t, "refs/tags/v1.0", "v1.0")
	is.Equal(ref("v1.0"), "")
	deploy.tag(t, "v1.0")
	deploy.refused(t, "refs/tags/v1.0", "v1.0")
	is.Equal(ref("v1.0"), "")
	deploy.tag(t, "build-1")
	deploy.pushes(t, "refs/tags/build-1")
	is.Equal(ref("build-1"), head)

	trusted.tag(t, "v1.0")
	trusted.pushes(t, "refs/tags/v1.0")
	is.Equal(ref("v1.0"), head)
	writer.refused(t, ":refs/tags/v1.0", "v1.0")
	deploy.refused(t, ":refs/tags/v1.0", "v1.0")
	is.Equal(ref("v1.0"), head)
}
