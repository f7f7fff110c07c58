package user

// FollowFacts are what the follow rule looks at: who follows whom, and the
// blocks between the two (whoever is held back by them: HeldBack).
type FollowFacts struct {
	FollowerID, TargetID int64
	// FollowerHeldBack is whether the target's block holds the follower back.
	FollowerHeldBack bool
	// TargetHeldBack is whether the follower's block holds the target back.
	TargetHeldBack bool
}

// FollowChange is what a follow or unfollow request does.
type FollowChange int

// The outcomes of a follow or unfollow request.
const (
	// FollowWrite records (or removes) the pair.
	FollowWrite FollowChange = iota
	// FollowNothing answers success and writes nothing: an account
	// following or unfollowing itself, which Gitea silently ignores.
	FollowNothing
)

// CanFollow decides a follow as Gitea's FollowUser: following oneself is a
// silent no-op, and a block either way forbids it (403 "user is blocked").
func CanFollow(f FollowFacts) (FollowChange, error) {
	if f.FollowerID == f.TargetID {
		return FollowNothing, nil
	}
	if f.FollowerHeldBack || f.TargetHeldBack {
		return FollowNothing, ErrBlocked
	}
	return FollowWrite, nil
}
