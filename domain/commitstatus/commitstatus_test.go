package commitstatus_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	cs "github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
)

func TestStateValid(t *testing.T) {
	for _, s := range cs.States {
		t.Run(string(s), func(t *testing.T) {
			is := is.New(t)
			is.True(s.Valid())
		})
	}
	for _, s := range []cs.State{"", "Success", "ok", "running", "successful"} {
		t.Run("invalid "+string(s), func(t *testing.T) {
			is := is.New(t)
			is.True(!s.Valid())
		})
	}
}

func TestReportValidate(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) }
	cases := []struct {
		name  string
		in    cs.Report
		want  cs.Report
		field string // "" when valid
	}{
		{name: "minimal gets the default context",
			in: cs.Report{State: "success"}, want: cs.Report{State: "success", Context: "default"}},
		{name: "trims every field",
			in:   cs.Report{State: " failure ", TargetURL: " https://ci.example.com/1 ", Description: " broke \n", Context: " ci/build "},
			want: cs.Report{State: "failure", TargetURL: "https://ci.example.com/1", Description: "broke", Context: "ci/build"}},
		{name: "every state", in: cs.Report{State: "skipped", Context: "x"}, want: cs.Report{State: "skipped", Context: "x"}},
		{name: "http is fine", in: cs.Report{State: "pending", TargetURL: "http://ci:8080/a?b=c#d"},
			want: cs.Report{State: "pending", TargetURL: "http://ci:8080/a?b=c#d", Context: "default"}},
		{name: "multi-line description", in: cs.Report{State: "error", Description: "a\n\tb"},
			want: cs.Report{State: "error", Description: "a\n\tb", Context: "default"}},
		{name: "longest context and description", in: cs.Report{State: "warning", Context: long(255), Description: long(1024)},
			want: cs.Report{State: "warning", Context: long(255), Description: long(1024)}},

		{name: "missing state", in: cs.Report{}, field: "State"},
		{name: "blank state", in: cs.Report{State: "  "}, field: "State"},
		{name: "unknown state", in: cs.Report{State: "done"}, field: "State"},
		{name: "state is case-sensitive", in: cs.Report{State: "SUCCESS"}, field: "State"},
		{name: "relative url", in: cs.Report{State: "success", TargetURL: "/builds/1"}, field: "TargetURL"},
		{name: "javascript url", in: cs.Report{State: "success", TargetURL: "javascript:alert(1)"}, field: "TargetURL"},
		{name: "ftp url", in: cs.Report{State: "success", TargetURL: "ftp://example.com/x"}, field: "TargetURL"},
		{name: "no host", in: cs.Report{State: "success", TargetURL: "https:///x"}, field: "TargetURL"},
		{name: "not a url", in: cs.Report{State: "success", TargetURL: "not a url"}, field: "TargetURL"},
		{name: "huge url", in: cs.Report{State: "success", TargetURL: "https://e.com/" + strings.Repeat("a", 2048)}, field: "TargetURL"},
		{name: "NUL in context", in: cs.Report{State: "success", Context: "a\x00b"}, field: "Context"},
		{name: "NUL in description", in: cs.Report{State: "success", Description: "a\x00b"}, field: "Description"},
		{name: "invalid UTF-8", in: cs.Report{State: "success", Description: "a\xffb"}, field: "Description"},
		{name: "context too long", in: cs.Report{State: "success", Context: long(256)}, field: "Context"},
		{name: "description too long", in: cs.Report{State: "success", Description: long(1025)}, field: "Description"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := c.in.Validate()
			if c.field == "" {
				is.NoErr(err)
				is.Equal(got, c.want)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Fields, []string{c.field})
		})
	}
}

// TestCombine walks Gitea 1.27's CommitStatusStates.Combine: error, failure
// and warning fail the commit (go-gitea/gitea#37048); success and skipped
// count as passed; anything else (pending, an unknown state) keeps it
// pending unless something failed. Every pair of states is checked, then
// longer mixes.
func TestCombine(t *testing.T) {
	const (
		P, S, E, F, W, K = cs.Pending, cs.Success, cs.Error, cs.Failure, cs.Warning, cs.Skipped
	)
	cases := []struct {
		name   string
		states []cs.State
		want   cs.State
	}{
		{"none", nil, ""},
		{"one pending", []cs.State{P}, P},
		{"one success", []cs.State{S}, S},
		{"one error is a failure", []cs.State{E}, F},
		{"one failure", []cs.State{F}, F},
		{"one warning is a failure", []cs.State{W}, F},
		{"skipped counts as success", []cs.State{K}, S},
		{"success and warning: the SDK's ultraCI and warn/bot", []cs.State{S, W}, F},
		{"success and skipped", []cs.State{S, K, S}, S},
		{"a pending among successes", []cs.State{S, S, P, K}, P},
		{"warning wins over pending", []cs.State{P, W}, F},
		{"failure wins over pending", []cs.State{P, S, F}, F},
		{"error wins over everything", []cs.State{S, P, W, K, E}, F},
		{"unknown state keeps it pending", []cs.State{S, "bogus"}, P},
	}
	// Every pair, order-independent: the worse side decides.
	rank := map[cs.State]int{E: 0, F: 0, W: 0, P: 1, S: 2, K: 2}
	combined := map[int]cs.State{0: F, 1: P, 2: S}
	for _, a := range cs.States {
		for _, b := range cs.States {
			want := combined[min(rank[a], rank[b])]
			cases = append(cases, struct {
				name   string
				states []cs.State
				want   cs.State
			}{"pair " + string(a) + "+" + string(b), []cs.State{a, b}, want})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(cs.Combine(c.states), c.want)
			list := make([]*cs.Status, len(c.states))
			for i, s := range c.states {
				list[i] = &cs.Status{State: s}
			}
			is.Equal(cs.CombineStatuses(list), c.want)
		})
	}
	t.Run("counts", func(t *testing.T) {
		is := is.New(t)
		is.Equal(cs.CombineCounts(nil), cs.State(""))
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 0}), cs.State("")) // zero counts are no statuses
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 3, cs.Error: 0}), cs.Success)
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 3, cs.Pending: 1}), cs.Pending)
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 3, cs.Pending: 1, cs.Error: 1}), cs.Failure)
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 3, cs.Warning: 1}), cs.Failure)
		is.Equal(cs.CombineCounts(map[cs.State]int64{cs.Success: 3, cs.Warning: 0}), cs.Success)
	})
}

func TestLatest(t *testing.T) {
	st := func(index int64, context string, state cs.State) *cs.Status {
		return &cs.Status{Index: index, Context: context, State: state}
	}
	cases := []struct {
		name string
		in   []*cs.Status
		want []int64 // indexes, newest first
	}{
		{"empty", nil, []int64{}},
		{"one", []*cs.Status{st(1, "ci", cs.Pending)}, []int64{1}},
		{"later replaces earlier", []*cs.Status{st(1, "ci", cs.Pending), st(2, "ci", cs.Success)}, []int64{2}},
		{"input order does not matter", []*cs.Status{st(3, "ci", cs.Failure), st(1, "ci", cs.Pending), st(2, "lint", cs.Success)}, []int64{3, 2}},
		{"contexts are case-sensitive", []*cs.Status{st(1, "CI", cs.Pending), st(2, "ci", cs.Success)}, []int64{2, 1}},
		{"several contexts newest first", []*cs.Status{
			st(1, "a", cs.Pending), st(2, "b", cs.Pending), st(3, "a", cs.Success), st(4, "c", cs.Error), st(5, "b", cs.Failure),
		}, []int64{5, 4, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got := cs.Latest(c.in)
			idx := make([]int64, len(got))
			for i, s := range got {
				idx[i] = s.Index
			}
			is.Equal(idx, c.want)
		})
	}
}

func TestParseSortAndStateFilter(t *testing.T) {
	sorts := map[string]cs.Sort{
		"": cs.SortNewest, "oldest": cs.SortOldest, "recentupdate": cs.SortRecentUpdate,
		"leastupdate": cs.SortLeastUpdate, "leastindex": cs.SortLeastIndex, "highestindex": cs.SortHighestIndex,
		" oldest ": cs.SortOldest, "newest": cs.SortNewest, "OLDEST": cs.SortNewest, "bogus": cs.SortNewest,
	}
	for in, want := range sorts {
		t.Run("sort "+in, func(t *testing.T) {
			is := is.New(t)
			is.Equal(cs.ParseSort(in), want)
		})
	}
	states := map[string]cs.State{
		"": "", "success": cs.Success, "skipped": cs.Skipped, " error ": cs.Error, "bogus": "", "Success": "",
	}
	for in, want := range states {
		t.Run("state "+in, func(t *testing.T) {
			is := is.New(t)
			is.Equal(cs.ParseStateFilter(in), want)
		})
	}
}
