package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

var activityPubInboxTests = map[string]func(t *testing.T, f *fixture){
	"FollowersAndLikesAreIdempotentAndPaged": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		const carol, dave = "https://r.example/carol", "https://r.example/dave"
		is.NoErr(f.ActivityPubInbox.AddFollower(f.ctx, ports.RemoteFollower{UserID: alice.ID, ActorIRI: carol, Created: at(1)}))
		is.NoErr(f.ActivityPubInbox.AddFollower(f.ctx, ports.RemoteFollower{UserID: alice.ID, ActorIRI: carol, Created: at(3)})) // a retried delivery
		is.NoErr(f.ActivityPubInbox.AddFollower(f.ctx, ports.RemoteFollower{UserID: alice.ID, ActorIRI: dave, Created: at(2)}))
		is.NoErr(f.ActivityPubInbox.AddFollower(f.ctx, ports.RemoteFollower{UserID: bob.ID, ActorIRI: carol, Created: at(2)}))

		got, total, err := f.ActivityPubInbox.Followers(f.ctx, alice.ID, ports.ListOptions{Page: 1, Limit: 1})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(got, []ports.RemoteFollower{{UserID: alice.ID, ActorIRI: carol, Created: at(1)}})
		got, _, err = f.ActivityPubInbox.Followers(f.ctx, alice.ID, ports.ListOptions{Page: 2, Limit: 1})
		is.NoErr(err)
		is.Equal(got, []ports.RemoteFollower{{UserID: alice.ID, ActorIRI: dave, Created: at(2)}})

		is.NoErr(f.ActivityPubInbox.RemoveFollower(f.ctx, alice.ID, carol))
		is.NoErr(f.ActivityPubInbox.RemoveFollower(f.ctx, alice.ID, carol))
		_, total, err = f.ActivityPubInbox.Followers(f.ctx, alice.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(1))
		_, total, err = f.ActivityPubInbox.Followers(f.ctx, bob.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(1))

		const repo = "https://d.example/alice/repo"
		is.NoErr(f.ActivityPubInbox.AddLike(f.ctx, ports.RemoteLike{UserID: alice.ID, ActorIRI: carol, ObjectIRI: repo, Created: at(1)}))
		is.NoErr(f.ActivityPubInbox.AddLike(f.ctx, ports.RemoteLike{UserID: alice.ID, ActorIRI: carol, ObjectIRI: repo, Created: at(2)}))
		likes, total, err := f.ActivityPubInbox.Likes(f.ctx, alice.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(likes, []ports.RemoteLike{{UserID: alice.ID, ActorIRI: carol, ObjectIRI: repo, Created: at(1)}})
		is.NoErr(f.ActivityPubInbox.RemoveLike(f.ctx, alice.ID, carol, repo))
		_, total, err = f.ActivityPubInbox.Likes(f.ctx, alice.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(0))

		// They go with the account.
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		_, total, err = f.ActivityPubInbox.Followers(f.ctx, bob.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(0))
	},
}
