package issues_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

// Pinning: at most issue.MaxPinned issues of a kind, positions kept dense,
// a pin event per change.
func TestPinPolicyPinsInOrderUpToTheLimit(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	a := f.mustAccess(f.writer)
	var list []*issue.Issue
	for _, title := range []string{"first", "second", "third", "fourth"} {
		list = append(list, f.issue(f.poster, title))
	}
	for _, i := range list[:issue.MaxPinned] {
		is.NoErr(f.svc.Pins().Pin(f.Ctx, a, i.Index))
	}
	is.NoErr(f.svc.Pins().Pin(f.Ctx, a, list[0].Index)) // pinning a pinned issue changes nothing

	err := f.svc.Pins().Pin(f.Ctx, a, list[3].Index)
	is.True(errors.Is(err, errs.ErrBadRequest)) // beyond the limit
	is.Equal(f.stored(list[3].ID).PinOrder, 0)

	pinned, err := f.svc.Pins().List(f.Ctx, a, false)
	is.NoErr(err)
	is.Equal(titles(pinned), []string{"first", "second", "third"})
	is.Equal(f.timeline(list[0].ID), []issue.CommentType{issue.CommentPin})
}

func TestPinPolicyUnpinAndMoveKeepPositionsDense(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	a := f.mustAccess(f.writer)
	one, two, three := f.issue(f.poster, "one"), f.issue(f.poster, "two"), f.issue(f.poster, "three")
	for _, i := range []*issue.Issue{one, two, three} {
		is.NoErr(f.svc.Pins().Pin(f.Ctx, a, i.Index))
	}

	is.NoErr(f.svc.Pins().Move(f.Ctx, a, three.Index, 1))
	pinned, err := f.svc.Pins().List(f.Ctx, a, false)
	is.NoErr(err)
	is.Equal(titles(pinned), []string{"three", "one", "two"})

	is.NoErr(f.svc.Pins().Unpin(f.Ctx, a, one.Index))
	is.NoErr(f.svc.Pins().Unpin(f.Ctx, a, one.Index)) // unpinning an unpinned issue changes nothing
	is.Equal([]int{f.stored(three.ID).PinOrder, f.stored(one.ID).PinOrder, f.stored(two.ID).PinOrder}, []int{1, 0, 2})
	is.Equal(f.timeline(one.ID), []issue.CommentType{issue.CommentPin, issue.CommentUnpin})

	err = f.svc.Pins().Move(f.Ctx, a, one.Index, 1)
	is.True(errors.Is(err, errs.ErrNotFound)) // not pinned
}

func titles(list []*issue.Issue) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x.Title
	}
	return out
}
