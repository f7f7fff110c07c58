package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestActivityFeedStatementCount pins that a feed page costs as many
// statements for 50 records (by several actors, in two repositories) as
// for one: the page, its count, the actors, the repositories and their
// owners are each read once per page, whichever feed lists them.
func TestActivityFeedStatementCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app, admin, caller := statementApp(t, b)
			ctx := context.Background()
			var fed []int64
			for _, name := range []string{"garden", "meadow"} {
				r, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: name})
				is.NoErr(err)
				fed = append(fed, r.ID)
			}

			var reader *user.User
			err := app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				people, err := createUsers(ctx, tx, "reader", "alice", "bob", "carol")
				if err != nil {
					return err
				}
				reader = people[0]
				at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
				var list []*activity.Activity
				for k := range 60 {
					actor := people[1+k%3].ID
					list = append(list, &activity.Activity{UserID: actor, ActUserID: actor, OpType: activity.OpCreateIssue,
						RepoID: fed[k%2], RepoOwnerID: admin.ID, Content: itoa(k) + "|issue",
						Created: at.Add(time.Duration(k) * time.Minute)})
				}
				return tx.Activities.Add(ctx, list)
			})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, reader.ID, "feeds", []string{"read:repository", "read:user", "read:organization"})
			is.NoErr(err)

			counter := newStatementCounter(t, app, secret)
			for _, feed := range []string{"repos/admin/garden/activities/feeds", "users/alice/activities/feeds"} {
				count := func(query string) (int64, []*gitea.Activity) {
					var list []*gitea.Activity
					n, _ := counter.count(feed+"?"+query, &list)
					return n, list
				}
				one, listOne := count("limit=1")
				many, listMany := count("limit=50")
				t.Logf("%s: %d statements for 1 record, %d for %d", feed, one, many, len(listMany))
				is.Equal(len(listOne), 1)
				is.True(len(listMany) >= 20)
				is.Equal(one, many)
				for _, a := range listMany {
					is.True(a.ActUser != nil && a.ActUser.UserName != "")
					is.True(a.Repo != nil && a.Repo.Owner != nil)
				}
			}
		})
	}
}
