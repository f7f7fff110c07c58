package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestOrgForkPayloadsShowTheSendersPermissions: a fork payload shows each
// repository with the sender's access to it, as Gitea's notifier renders
// it: the repository forked (forkee) with the sender's access there, the
// new fork (and its parent) with the sender's access to the fork, never the
// source owner's.
func TestOrgForkPayloadsShowTheSendersPermissions(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		_, dan := newAccount(t, srv, "dan", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "open", AutoInit: true, Readme: "Default"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true, AutoInit: true, Readme: "Default"})
		write := gitea.AccessModeWrite
		_, err := alice.AddCollaborator("alice", "secret", "carol", gitea.AddCollaboratorOption{Permission: &write})
		is.NoErr(err)
		orgCreate(t, dan, "acme", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)
		for _, name := range []string{"open", "secret"} {
			_, _, err := alice.CreateRepoHook("alice", name, hookevOpt(rec.URL+"/"+name, "fork"))
			is.NoErr(err)
		}
		all := gitea.Permission{Admin: true, Push: true, Pull: true}

		// bob, who may only read alice/open, forks it into his account.
		fork, _, err := bob.CreateFork("alice", "open", gitea.CreateForkOption{})
		is.NoErr(err)
		p := deliveryDecode[hookevFork](t, rec.wait(t, "/open", 1)[0].Body)
		is.Equal(p.Sender.UserName, "bob")
		is.Equal(p.Forkee.FullName, "alice/open")
		is.True(p.Forkee.Permissions != nil)
		is.Equal(hookSenderPermission(p.Forkee), gitea.Permission{Pull: true})
		is.Equal(p.Repo.ID, fork.ID)
		is.Equal(hookSenderPermission(p.Repo), all) // bob owns the fork
		is.True(p.Repo.Parent != nil)
		is.Equal(p.Repo.Parent.FullName, "alice/open")

		// carol, a collaborator with write on the private alice/secret, forks
		// it: the forkee shows her write access, not alice's ownership.
		_, _, err = carol.CreateFork("alice", "secret", gitea.CreateForkOption{})
		is.NoErr(err)
		p = deliveryDecode[hookevFork](t, rec.wait(t, "/secret", 1)[0].Body)
		is.Equal(p.Sender.UserName, "carol")
		is.Equal(hookSenderPermission(p.Forkee), gitea.Permission{Push: true, Pull: true})
		is.Equal(p.Repo.FullName, "carol/secret")
		is.Equal(hookSenderPermission(p.Repo), all)

		// dan forks alice/open into acme, which he owns: his ownership of the
		// organisation gives him everything on the fork, read on the forkee.
		org := "acme"
		_, _, err = dan.CreateFork("alice", "open", gitea.CreateForkOption{Organization: &org})
		is.NoErr(err)
		p = deliveryDecode[hookevFork](t, rec.wait(t, "/open", 2)[1].Body)
		is.Equal(p.Sender.UserName, "dan")
		is.Equal(hookSenderPermission(p.Forkee), gitea.Permission{Pull: true})
		is.Equal(p.Repo.FullName, "acme/open")
		is.Equal(hookSenderPermission(p.Repo), all)
	})
}
