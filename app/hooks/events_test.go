package hooks

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
)

func TestPushEventsFollowGiteasOrder(t *testing.T) {
	zero := strings.Repeat("0", 40)
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	cases := []struct {
		name   string
		change repository.RefChange
		want   []string
	}{
		{"new branch", repository.RefChange{OldID: zero, NewID: a, Ref: "refs/heads/x"}, []string{"create", "push"}},
		{"updated branch", repository.RefChange{OldID: a, NewID: b, Ref: "refs/heads/x"}, []string{"push"}},
		{"deleted branch", repository.RefChange{OldID: a, NewID: zero, Ref: "refs/heads/x"}, []string{"delete"}},
		{"new tag", repository.RefChange{OldID: zero, NewID: a, Ref: "refs/tags/v1"}, []string{"push", "create"}},
		{"moved tag", repository.RefChange{OldID: a, NewID: b, Ref: "refs/tags/v1"}, []string{"push", "create"}},
		{"deleted tag", repository.RefChange{OldID: a, NewID: zero, Ref: "refs/tags/v1"}, []string{"push", "delete"}},
		{"other ref", repository.RefChange{OldID: zero, NewID: a, Ref: "refs/notes/commits"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			var got []string
			for _, e := range pushEvents([]repository.RefChange{c.change}) {
				got = append(got, e.event)
				if c.change.IsTag() {
					is.Equal(e.branch(), "") // branch filters judge branches only
				} else {
					is.Equal(e.branch(), "x")
				}
			}
			is.Equal(got, c.want)
		})
	}
}

func TestRetryBackoffDoublesUpToACap(t *testing.T) {
	is := is.New(t)
	d := &Dispatcher{settings: site.Settings{WebhookMaxAttempts: 4, WebhookRetryDelay: 10 * time.Second,
		WebhookTimeout: 3 * time.Second}}
	o := d.kindOptions()
	is.Equal(o.MaxAttempts, 4)
	is.True(o.Lease > 2*3*time.Second) // a lease outlasts an attempt
	is.Equal(o.Backoff(1), 10*time.Second)
	is.Equal(o.Backoff(2), 20*time.Second)
	is.Equal(o.Backoff(3), 40*time.Second)
	is.Equal(o.Backoff(40), maxRetryDelay)
}

type fixedSecrets struct{ hex string }

func (f fixedSecrets) TokenSecret() (string, error) { return f.hex, nil }
func (f fixedSecrets) Salt() (string, error)        { return "", nil }
func (f fixedSecrets) Password() (string, error)    { return "", nil }

func TestDeliveryUUIDIsVersion4(t *testing.T) {
	is := is.New(t)
	d := &Dispatcher{secrets: fixedSecrets{"0123456789abcdef0123456789abcdef01234567"}}
	id, err := d.newUUID()
	is.NoErr(err)
	is.Equal(id, "01234567-89ab-4def-8123-456789abcdef")
}
