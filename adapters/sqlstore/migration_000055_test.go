package sqlstore_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestMigrationActivitiesAnyActor checks schema version 000055 on existing
// rows: without it (its down step) a record by the Actions pseudo-user is
// refused; with it the records keep their ids, the next id comes after
// them, the pseudo-user's record is taken, and an account's records still
// go with the account.
func TestMigrationActivitiesAnyActor(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			ctx := t.Context()
			d := openMigrated(t, b)
			stores := d.Stores()
			owner, other := newUser("owner"), newUser("other")
			is.NoErr(stores.Users.Create(ctx, owner))
			is.NoErr(stores.Users.Create(ctx, other))
			r := &repository.Repository{Owner: repository.Owner{ID: owner.ID, Name: owner.Name}, Name: "app",
				LowerName: "app", DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits()}
			is.NoErr(stores.Repos.Create(ctx, r))
			record := func(actor int64) (int64, error) {
				a := &activity.Activity{UserID: actor, ActUserID: actor, OpType: activity.OpCommitRepo, RepoID: r.ID,
					RepoOwnerID: owner.ID, Created: time.Now()}
				err := stores.Activities.Add(ctx, []*activity.Activity{a})
				return a.ID, err
			}
			feed := func() []int64 {
				list, _, err := stores.Activities.List(ctx, ports.ActivityQuery{RepoID: r.ID,
					ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
				is.NoErr(err)
				ids := []int64{}
				for _, a := range list {
					ids = append(ids, a.ID)
				}
				return ids
			}

			is.NoErr(d.MigrationStep(ctx, "000055", false))
			first, err := record(owner.ID)
			is.NoErr(err)
			second, err := record(other.ID)
			is.NoErr(err)
			_, err = record(user.ActionsUserID)
			is.True(err != nil) // the key to users refuses it

			is.NoErr(d.MigrationStep(ctx, "000055", true))
			is.Equal(feed(), []int64{second, first})
			third, err := record(user.ActionsUserID)
			is.NoErr(err)
			is.True(third > second)
			is.NoErr(stores.Users.Delete(ctx, other.ID))
			is.Equal(feed(), []int64{third, first})
		})
	}
}
