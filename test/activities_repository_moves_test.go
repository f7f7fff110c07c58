package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestActivityRenameTransferWiki: a rename, a transfer and wiki edits are
// recorded in the repository's feed (rename_repo with the old name,
// transfer_repo with the old full name, Depot's edit_wiki and delete_wiki
// with the page), on both backends.
func TestActivityRenameTransferWiki(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		socialAccounts(t, srv, "fern")
		fern := userClient(srv, "fern")
		createRepo(t, fern, gitea.CreateRepoOption{Name: "garden", AutoInit: true})
		_, _, err := fern.CreateOrg(gitea.CreateOrgOption{Name: "greenhouse", Visibility: gitea.VisibleTypePublic})
		is.NoErr(err)

		wikiPage(t, fern, "fern", "garden", "Plants", "ferns")
		_, _, err = fern.EditWikiPage("fern", "garden", "Plants", gitea.CreateWikiPageOptions{ContentBase64: b64("more ferns"), Message: "grow"})
		is.NoErr(err)
		_, err = fern.DeleteWikiPage("fern", "garden", "Plants")
		is.NoErr(err)

		name := "meadow"
		_, _, err = fern.EditRepo("fern", "garden", gitea.EditRepoOption{Name: &name})
		is.NoErr(err)
		_, _, err = fern.TransferRepo("fern", "meadow", gitea.TransferRepoOption{NewOwner: "greenhouse"})
		is.NoErr(err)

		list, _, err := fern.ListRepoActivityFeeds("greenhouse", "meadow", gitea.ListRepoActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(opTypes(list), []string{"transfer_repo", "rename_repo", "delete_wiki", "edit_wiki", "edit_wiki", "create_repo"})
		is.Equal(list[0].Content, "fern/meadow")
		is.Equal(list[0].ActUser.UserName, "fern")
		is.Equal(list[0].Repo.FullName, "greenhouse/meadow")
		is.Equal(list[1].Content, "garden")
		is.Equal(list[2].RefName, "Plants")
		is.Equal(list[3].Content, "grow")
	})
}

// TestActivityMirrorSync: a pull mirror's sync records what it changed,
// by the mirror's owner (mirror_sync_push for a moved branch,
// mirror_sync_create for a new tag, mirror_sync_delete for a branch gone),
// while the migration's first fetch records nothing of the kind.
func TestActivityMirrorSync(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		p := mirrorSetup(t, opts...)
		_, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "pub", "", ""),
			RepoName: "mirror", Mirror: true})
		is.NoErr(err)

		httpGitCommit(t, p.work, "c.txt", "c\n", "third")
		httpGitOK(t, p.work, "tag", "v2")
		httpGitOK(t, p.work, "push", "-q", "origin", "main", "v2", ":dev")
		_, err = p.bob.MirrorSync("bob", "mirror")
		is.NoErr(err)

		var list []*gitea.Activity
		mirrorEventually(t, "the sync's records", func() bool {
			list, _, err = p.bob.ListRepoActivityFeeds("bob", "mirror", gitea.ListRepoActivityFeedsOptions{})
			return err == nil && len(list) > 0 && list[0].OpType != "create_repo"
		})
		got := map[string]string{}
		for _, a := range list {
			if a.OpType != "create_repo" {
				got[a.RefName] = a.OpType
				is.Equal(a.ActUser.UserName, "bob")
			}
		}
		is.Equal(got, map[string]string{"refs/heads/main": "mirror_sync_push", "refs/tags/v2": "mirror_sync_create",
			"refs/heads/dev": "mirror_sync_delete"})
	})
}
