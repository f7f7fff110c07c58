package activity

import "testing"

func TestUserFeedVisibility(t *testing.T) {
	cases := []struct {
		name               string
		v                  Viewer
		keep               bool
		hidden, publicOnly bool
	}{
		{"anonymous", Viewer{}, false, false, true},
		{"anonymous, kept private", Viewer{}, true, true, true},
		{"self", Viewer{ID: 1}, true, false, false},
		{"other user", Viewer{ID: 2}, false, false, true},
		{"other user, kept private", Viewer{ID: 2}, true, true, true},
		{"admin", Viewer{ID: 3, IsAdmin: true}, true, false, false},
		{"self with a public-only token", Viewer{ID: 1, PublicOnly: true}, false, false, true},
	}
	for _, c := range cases {
		hidden, publicOnly := UserFeedVisibility(c.v, 1, c.keep)
		if hidden != c.hidden || publicOnly != c.publicOnly {
			t.Errorf("%s: got hidden=%v publicOnly=%v, want %v %v", c.name, hidden, publicOnly, c.hidden, c.publicOnly)
		}
	}
}

func TestGroupFeedVisibility(t *testing.T) {
	cases := []struct {
		name     string
		v        Viewer
		readsAll bool
		want     bool
	}{
		{"anonymous", Viewer{}, false, true},
		{"outsider", Viewer{ID: 2}, false, true},
		{"owner", Viewer{ID: 2}, true, false},
		{"admin", Viewer{ID: 3, IsAdmin: true}, false, false},
		{"owner with a public-only token", Viewer{ID: 2, PublicOnly: true}, true, true},
	}
	for _, c := range cases {
		if got := GroupFeedVisibility(c.v, c.readsAll); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
