package notification

import (
	"slices"
	"testing"
)

func TestNotificationRecipients(t *testing.T) {
	cases := []struct {
		name string
		in   Audience
		want []int64
	}{
		{"nobody", Audience{ActorID: 1}, nil},
		{"actor never", Audience{ActorID: 1, Watchers: []int64{1, 2}, Participants: []int64{1}, Mentioned: []int64{1}}, []int64{2}},
		{"deduplicated and sorted", Audience{ActorID: 9, Watchers: []int64{3, 2}, Participants: []int64{2, 4}, Mentioned: []int64{4}}, []int64{2, 3, 4}},
		{"muted watcher left out", Audience{ActorID: 9, Watchers: []int64{2, 3}, Unsubscribed: []int64{3}}, []int64{2}},
		{"muted but mentioned", Audience{ActorID: 9, Watchers: []int64{3}, Mentioned: []int64{3}, Unsubscribed: []int64{3}}, []int64{3}},
		{"no ghost ids", Audience{ActorID: 9, Watchers: []int64{0, -1, 5}}, []int64{5}},
	}
	for _, c := range cases {
		if got := Recipients(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%s: Recipients = %v, want %v", c.name, got, c.want)
		}
	}
}
