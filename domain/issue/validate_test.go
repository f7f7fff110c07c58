package issue

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestIssueCoreNormaliseTitle(t *testing.T) {
	cases := []struct {
		in, want string
		bad      bool
	}{
		{in: "  Crash on start \n", want: "Crash on start"},
		{in: "", bad: true},
		{in: " \t ", bad: true},
		{in: strings.Repeat("é", MaxTitleLength), want: strings.Repeat("é", MaxTitleLength)},
		{in: strings.Repeat("a", MaxTitleLength+1), bad: true},
	}
	for _, c := range cases {
		is := is.New(t)
		got, err := NormaliseTitle(c.in)
		if c.bad {
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.HasPrefix(errs.Message(err), "Title: "))
			continue
		}
		is.NoErr(err)
		is.Equal(got, c.want)
	}
}

func TestIssueCoreAssigneeNames(t *testing.T) {
	cases := []struct {
		one  string
		many []string
		want []string
	}{
		{"", nil, nil},
		{"bob", nil, []string{"bob"}},
		{"Bob", []string{"bob", "carol"}, []string{"bob", "carol"}},
		{"", []string{"x", " ", "X", "y"}, []string{"x", "y"}},
	}
	for _, c := range cases {
		is := is.New(t)
		is.Equal(AssigneeNames(c.one, c.many), c.want)
	}
}

func TestIssueCoreDiffIDs(t *testing.T) {
	cases := []struct {
		prev, next, added, removed []int64
	}{
		{nil, nil, nil, nil},
		{nil, []int64{1, 2}, []int64{1, 2}, nil},
		{[]int64{1, 2}, nil, nil, []int64{1, 2}},
		{[]int64{1, 2}, []int64{2, 3, 3}, []int64{3}, []int64{1}},
	}
	for _, c := range cases {
		is := is.New(t)
		a, r := DiffIDs(c.prev, c.next)
		is.Equal(a, c.added)
		is.Equal(r, c.removed)
	}
}

func TestIssueCoreStates(t *testing.T) {
	is := is.New(t)
	for _, s := range []string{"open", "closed"} {
		st, err := ParseState(s)
		is.NoErr(err)
		is.Equal(string(st), s)
	}
	for _, s := range []string{"", "all", "Closed", "reopened"} {
		_, err := ParseState(s)
		is.True(errors.Is(err, errs.ErrInvalid))
	}

	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	i := &Issue{}
	is.True(!i.SetState(StateOpen, now)) // already open
	is.True(i.SetState(StateClosed, now))
	is.True(i.IsClosed && i.ClosedAt != nil && i.ClosedAt.Equal(now))
	is.Equal(i.State(), StateClosed)
	is.True(!i.SetState(StateClosed, now.Add(time.Hour))) // closing twice keeps the first stamp
	is.True(i.ClosedAt.Equal(now))
	is.True(i.SetState(StateOpen, now))
	is.True(!i.IsClosed && i.ClosedAt == nil)
}

func TestIssueCoreRights(t *testing.T) {
	cases := []struct {
		poster, write bool
		want          EditRights
	}{
		{false, false, EditRights{}},
		{true, false, EditRights{Edit: true}},
		{false, true, EditRights{Edit: true, Meta: true}},
		{true, true, EditRights{Edit: true, Meta: true}},
	}
	for _, c := range cases {
		is := is.New(t)
		is.Equal(RightsOf(c.poster, c.write), c.want)
	}
}

func TestIssueCoreSearchTerms(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"Crash-Report", []string{"crash", "report"}},
		{"crash crash CRASH", []string{"crash"}},
		{"café  v1.2 #12", []string{"café", "v1", "2", "12"}},
		{"a b c d e f g h i j k l", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}},
		{strings.Repeat("é", 70), []string{strings.Repeat("é", 64)}},
		{`"quoted" OR *`, []string{"quoted", "or"}},
	}
	for _, c := range cases {
		is := is.New(t)
		is.Equal(SearchTerms(c.in), c.want)
	}
}
