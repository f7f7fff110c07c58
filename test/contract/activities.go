package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// activityOps are the op types of a feed page, in order.
func activityOps(list []*activity.Activity) []activity.OpType {
	out := make([]activity.OpType, len(list))
	for i, a := range list {
		out[i] = a.OpType
	}
	return out
}

// activityTests is the behaviour of the activity records every store shares:
// feeds newest first, paged with their size, filtered by actor, window and
// the repositories' visibility, and the heatmap's 15-minute buckets.
var activityTests = map[string]func(t *testing.T, f *fixture){
	"the Actions pseudo-user acts; an account's records go with it": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner, other := f.user("ActOwner"), f.user("ActOther")
		r := f.repo(owner, "pub")
		for i, actor := range []int64{user.ActionsUserID, other.ID, owner.ID} {
			is.NoErr(f.Activities.Add(f.ctx, []*activity.Activity{{UserID: actor, ActUserID: actor,
				OpType: activity.OpCommitRepo, RepoID: r.ID, RepoOwnerID: owner.ID, Created: at(i + 1)}}))
		}
		feed := func() []int64 {
			list, _, err := f.Activities.List(f.ctx, ports.ActivityQuery{RepoID: r.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
			is.NoErr(err)
			var actors []int64
			for _, a := range list {
				actors = append(actors, a.ActUserID)
			}
			return actors
		}
		is.Equal(feed(), []int64{owner.ID, other.ID, user.ActionsUserID})
		is.NoErr(f.Users.Delete(f.ctx, other.ID))
		is.Equal(feed(), []int64{owner.ID, user.ActionsUserID})
	},
	"DeleteBefore removes the older records": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("ActOwner")
		r := f.repo(owner, "pub")
		for _, minute := range []int{1, 2, 5} {
			is.NoErr(f.Activities.Add(f.ctx, []*activity.Activity{{UserID: owner.ID, ActUserID: owner.ID,
				OpType: activity.OpCreateRepo, RepoID: r.ID, RepoOwnerID: owner.ID, Created: at(minute)}}))
		}
		n, err := f.Activities.DeleteBefore(f.ctx, at(3))
		is.NoErr(err)
		is.Equal(n, int64(2))
		list, total, err := f.Activities.List(f.ctx, ports.ActivityQuery{RepoID: r.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(list[0].Created, at(5).Truncate(time.Second))
		n, err = f.Activities.DeleteBefore(f.ctx, at(3))
		is.NoErr(err)
		is.Equal(n, int64(0))
	},
	"feeds filter and page in SQL": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner, other := f.user("ActOwner"), f.user("ActOther")
		pub := f.repo(owner, "pub")
		priv := f.repo(owner, "priv", func(r *repository.Repository) { r.Private = true })
		add := func(actor int64, r *repository.Repository, op activity.OpType, when time.Time) {
			t.Helper()
			a := &activity.Activity{UserID: actor, ActUserID: actor, OpType: op, RepoID: r.ID, RepoOwnerID: r.Owner.ID,
				RefName: "refs/heads/main", Content: "1|x", IsPrivate: r.Private, Created: when}
			is.NoErr(f.Activities.Add(f.ctx, []*activity.Activity{a}))
			is.True(a.ID > 0)
		}
		add(owner.ID, pub, activity.OpCreateRepo, at(1))
		add(owner.ID, priv, activity.OpCreateRepo, at(2))
		add(other.ID, pub, activity.OpCommentIssue, at(3))
		add(owner.ID, pub, activity.OpCommitRepo, at(4))

		list, total, err := f.Activities.List(f.ctx, ports.ActivityQuery{RepoID: pub.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 2}})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(activityOps(list), []activity.OpType{activity.OpCommitRepo, activity.OpCommentIssue})
		is.Equal(list[0].Created, at(4).Truncate(time.Second))
		is.Equal(list[0].RefName, "refs/heads/main")

		_, total, err = f.Activities.List(f.ctx, ports.ActivityQuery{UserID: owner.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(4))
		_, total, err = f.Activities.List(f.ctx, ports.ActivityQuery{UserID: owner.ID, PublicOnly: true, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(3))
		_, total, err = f.Activities.List(f.ctx, ports.ActivityQuery{OwnerID: owner.ID, ActUserID: other.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(1))
		list, _, err = f.Activities.List(f.ctx, ports.ActivityQuery{RepoID: pub.ID, From: at(2), To: at(4), ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(activityOps(list), []activity.OpType{activity.OpCommentIssue})

		buckets, err := f.Activities.Heatmap(f.ctx, owner.ID, at(0), false)
		is.NoErr(err)
		is.Equal(len(buckets), 1)
		is.Equal(buckets[0].Contributions, int64(3))
		is.Equal(buckets[0].Timestamp%activity.HeatmapWindow, int64(0))
		buckets, err = f.Activities.Heatmap(f.ctx, owner.ID, at(0), true)
		is.NoErr(err)
		is.Equal(buckets[0].Contributions, int64(2))
	},
}
