package notification

import "slices"

// Audience is who may hear of a change of an issue or pull request, as
// Gitea's notification rules gather them.
type Audience struct {
	// ActorID made the change; never notified of it.
	ActorID int64
	// Watchers watch the repository.
	Watchers []int64
	// Participants are the poster, commenters and assignees.
	Participants []int64
	// Mentioned are the users the change mentions, assigns or asks to
	// review: notified even when they do not watch.
	Mentioned []int64
	// Unsubscribed explicitly muted the issue; they hear nothing of it,
	// unless mentioned.
	Unsubscribed []int64
}

// Recipients is the audience's users to notify, sorted and without
// duplicates, before the read check: the actor and those who muted the
// issue (but for mentions) are left out. The caller then keeps only those
// who may still read the repository.
func Recipients(a Audience) []int64 {
	muted := make(map[int64]bool, len(a.Unsubscribed))
	for _, id := range a.Unsubscribed {
		muted[id] = true
	}
	seen := map[int64]bool{}
	var out []int64
	add := func(ids []int64, ignoreMute bool) {
		for _, id := range ids {
			if id <= 0 || id == a.ActorID || seen[id] || (muted[id] && !ignoreMute) {
				continue
			}
			seen[id] = true
			out = append(out, id)
		}
	}
	add(a.Mentioned, true)
	add(a.Participants, false)
	add(a.Watchers, false)
	slices.Sort(out)
	return out
}
