package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// hookSenderPermission is a payload repository's permissions object, nil-safe.
func hookSenderPermission(r *gitea.Repository) gitea.Permission {
	if r == nil || r.Permissions == nil {
		return gitea.Permission{}
	}
	return *r.Permissions
}

// TestHookIssuePayloadsShowTheSendersPermissions: an issue or comment
// payload shows the repository with the sender's access to it, as Gitea's
// notifier renders it (the doer's permission), whoever owns the hook.
func TestHookIssuePayloadsShowTheSendersPermissions(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", Private: true})
		write, read := gitea.AccessModeWrite, gitea.AccessModeRead
		_, err := alice.AddCollaborator("alice", "repo", "carol", gitea.AddCollaboratorOption{Permission: &write})
		is.NoErr(err)
		_, err = alice.AddCollaborator("alice", "repo", "bob", gitea.AddCollaboratorOption{Permission: &read})
		is.NoErr(err)
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/h", []string{"issues_only", "issue_comment"})

		// carol, a collaborator with write, opens an issue.
		i, _, err := carol.CreateIssue("alice", "repo", gitea.CreateIssueOption{Title: "from carol"})
		is.NoErr(err)
		p := deliveryDecode[hookIssuePayload](t, rec.wait(t, "/h", 1)[0].Body)
		is.Equal(p.Sender.UserName, "carol")
		is.True(p.Repository.Permissions != nil)
		is.Equal(hookSenderPermission(p.Repository), gitea.Permission{Admin: false, Push: true, Pull: true})

		// bob, who may only read, comments.
		_, _, err = bob.CreateIssueComment("alice", "repo", i.Index, gitea.CreateIssueCommentOption{Body: "+1"})
		is.NoErr(err)
		cp := deliveryDecode[hookCommentPayload](t, rec.wait(t, "/h", 2)[1].Body)
		is.Equal(cp.Sender.UserName, "bob")
		is.Equal(hookSenderPermission(cp.Repository), gitea.Permission{Admin: false, Push: false, Pull: true})

		// alice, the owner, closes it: everything.
		closed := gitea.StateClosed
		_, _, err = alice.EditIssue("alice", "repo", i.Index, gitea.EditIssueOption{State: &closed})
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/h", 3)[2].Body)
		is.Equal(p.Sender.UserName, "alice")
		is.Equal(hookSenderPermission(p.Repository), gitea.Permission{Admin: true, Push: true, Pull: true})

		// A site administrator who is no collaborator: everything too.
		_, _, err = srv.AdminClient().CreateIssueComment("alice", "repo", i.Index, gitea.CreateIssueCommentOption{Body: "admin"})
		is.NoErr(err)
		cp = deliveryDecode[hookCommentPayload](t, rec.wait(t, "/h", 4)[3].Body)
		is.Equal(cp.Sender.UserName, "admin")
		is.Equal(hookSenderPermission(cp.Repository), gitea.Permission{Admin: true, Push: true, Pull: true})
	})
}

// TestHookOrgTeamPermissionsInIssuePayloads: in an organisation's
// repository the sender's team access counts, not only collaborations.
func TestHookOrgTeamPermissionsInIssuePayloads(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, dan := newAccount(t, srv, "dan", gitea.VisibleTypePublic)
		_, _, err := alice.CreateOrg(gitea.CreateOrgOption{Name: "acme", Visibility: gitea.VisibleTypePublic})
		is.NoErr(err)
		_, _, err = alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "repo", Private: true})
		is.NoErr(err)
		team, _, err := alice.CreateTeam("acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues, gitea.RepoUnitPulls}})
		is.NoErr(err)
		_, err = alice.AddTeamMember(team.ID, "dan")
		is.NoErr(err)
		_, err = alice.AddTeamRepository(team.ID, "acme", "repo")
		is.NoErr(err)
		rec := deliveryNewReceiver(t, nil)
		_, _, err = alice.CreateRepoHook("acme", "repo", gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
			Events: []string{"issues_only"}, Config: map[string]string{"url": rec.URL + "/org", "content_type": "json"}})
		is.NoErr(err)

		_, _, err = dan.CreateIssue("acme", "repo", gitea.CreateIssueOption{Title: "from dan"})
		is.NoErr(err)
		p := deliveryDecode[hookIssuePayload](t, rec.wait(t, "/org", 1)[0].Body)
		is.Equal(p.Sender.UserName, "dan")
		is.Equal(hookSenderPermission(p.Repository), gitea.Permission{Admin: false, Push: true, Pull: true})
	})
}
