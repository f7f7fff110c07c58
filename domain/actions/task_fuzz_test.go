package actions_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

// FuzzSingleJobWorkflow feeds workflow files from repositories: the
// reduction never panics, refuses with a 422 only, and what it returns
// keeps the one job and parses again.
func FuzzSingleJobWorkflow(f *testing.F) {
	f.Add("on: push\njobs:\n  a:\n    runs-on: x\n  b:\n    runs-on: y\n", "b")
	f.Add("jobs: [1, 2]\n", "a")
	f.Add("- a\n", "a")
	f.Add("on: push\njobs:\n  a: &x {runs-on: x}\n  b: *x\n", "b")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, data, job string) {
		out, err := actions.SingleJobWorkflow([]byte(data), job)
		if err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("SingleJobWorkflow: %v is not a 422", err)
			}
			return
		}
		w, err := actions.ParseWorkflow("w.yml", out)
		if err != nil {
			return // the file had other faults the reduction keeps
		}
		if len(w.Jobs) != 1 || (utf8.ValidString(job) && w.Jobs[0].ID != job) {
			t.Fatalf("SingleJobWorkflow(%q, %q) = %q", data, job, out)
		}
	})
}

// FuzzRunnerLabels checks the labels a runner declares: never blank, never
// repeated, never spanning lines (they are stored one a line).
func FuzzRunnerLabels(f *testing.F) {
	f.Add("linux", "linux", " a\nb")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		seen := map[string]bool{}
		for _, l := range actions.RunnerLabels([]string{a, b, c}) {
			if l == "" || seen[l] {
				t.Fatalf("labels %q %q %q gave %q twice or blank", a, b, c, l)
			}
			for _, r := range l {
				if r == '\n' || r == '\r' {
					t.Fatalf("label %q spans lines", l)
				}
			}
			seen[l] = true
		}
	})
}
