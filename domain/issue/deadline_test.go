package issue

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestDeadline(t *testing.T) {
	is := is.New(t)
	zone := time.FixedZone("x", 10*3600)
	d := DeadlineOf(time.Date(2024, 3, 5, 1, 0, 0, 0, zone))
	is.Equal(d, time.Date(2024, 3, 5, 23, 59, 59, 0, time.UTC))
	later := DeadlineOf(time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		old, upd *time.Time
		typ      CommentType
		content  string
		changed  bool
	}{
		{nil, nil, 0, "", false},
		{nil, &d, CommentAddedDeadline, "2024-03-05", true},
		{&d, &later, CommentModifiedDeadline, "2024-04-01|2024-03-05", true},
		{&d, &d, 0, "", false},
		{&d, nil, CommentRemovedDeadline, "2024-03-05", true},
	}
	for _, c := range cases {
		typ, content, changed := DeadlineEvent(c.old, c.upd)
		is.Equal(typ, c.typ)
		is.Equal(content, c.content)
		is.Equal(changed, c.changed)
	}
}
