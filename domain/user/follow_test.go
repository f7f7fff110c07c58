package user

import (
	"errors"
	"testing"
)

func TestCanFollow(t *testing.T) {
	cases := []struct {
		name    string
		f       FollowFacts
		want    FollowChange
		wantErr error
	}{
		{"another account", FollowFacts{FollowerID: 1, TargetID: 2}, FollowWrite, nil},
		{"oneself is a no-op", FollowFacts{FollowerID: 1, TargetID: 1}, FollowNothing, nil},
		{"oneself even when held back", FollowFacts{FollowerID: 1, TargetID: 1, FollowerHeldBack: true}, FollowNothing, nil},
		{"the target blocks the follower", FollowFacts{FollowerID: 1, TargetID: 2, FollowerHeldBack: true}, FollowNothing, ErrBlocked},
		{"the follower blocks the target", FollowFacts{FollowerID: 1, TargetID: 2, TargetHeldBack: true}, FollowNothing, ErrBlocked},
		{"both block", FollowFacts{FollowerID: 1, TargetID: 2, FollowerHeldBack: true, TargetHeldBack: true}, FollowNothing, ErrBlocked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CanFollow(c.f)
			if got != c.want || !errors.Is(err, c.wantErr) {
				t.Fatalf("CanFollow(%+v) = %v, %v; want %v, %v", c.f, got, err, c.want, c.wantErr)
			}
		})
	}
}
