package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestReleaseListStatementCount pins that GET R/releases costs as many
// statements for a page of 50 releases (by several publishers, two assets
// each) as for a page of one: the page, its count, the publishers and the
// assets are each one query.
func TestReleaseListStatementCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app, admin, caller := statementApp(t, b)
			ctx := context.Background()
			r, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: "released", AutoInit: true})
			is.NoErr(err)

			var reader *user.User
			err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				people, err := createUsers(ctx, tx, "reader", "alice", "bob", "carol")
				if err != nil {
					return err
				}
				reader = people[0]
				at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
				for k := range 60 {
					rel := &release.Release{RepoID: r.ID, PublisherID: people[k%4].ID, TagName: "v" + itoa(k),
						Target: "main", Title: "release", Note: "notes", IsPrerelease: k%5 == 0,
						Created: at.Add(time.Duration(k) * time.Minute), Published: at}
					if err := tx.Releases.Create(ctx, rel); err != nil {
						return err
					}
					for n := range 2 {
						if err := tx.ReleaseAssets.Create(ctx, &release.Asset{UUID: "u-" + itoa(k) + "-" + itoa(n),
							RepoID: r.ID, ReleaseID: rel.ID, UploaderID: rel.PublisherID, Name: "f" + itoa(n) + ".zip",
							Size: 10, Created: at}); err != nil {
							return err
						}
					}
				}
				return nil
			})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, reader.ID, "releases", []string{"read:repository"})
			is.NoErr(err)

			counter := newStatementCounter(t, app, secret)
			count := func(query string) (int64, []*gitea.Release) {
				var list []*gitea.Release
				n, _ := counter.count("repos/admin/released/releases?"+query, &list)
				return n, list
			}
			one, listOne := count("limit=1")
			fifty, listFifty := count("limit=50")
			t.Logf("statements: %d for 1 release, %d for 50", one, fifty)
			is.Equal(len(listOne), 1)
			is.Equal(len(listFifty), 50)
			is.Equal(one, fifty)
			filtered, listFiltered := count("limit=50&pre-release=false&q=v")
			is.Equal(len(listFiltered), 48)
			is.Equal(filtered, fifty)
			for _, rel := range listFifty {
				is.True(rel.Publisher != nil && rel.Publisher.UserName != "")
				is.Equal(len(rel.Attachments), 2)
			}
		})
	}
}
