package pull

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
)

func TestClosingReferences(t *testing.T) {
	is := is.New(t)
	got := ClosingReferences("Fixes #3, closes: owner/repo#4.\nresolved #3 and mentions #9; Close #x; fix #0 fixes a/b/c#2")
	is.Equal(got, []issue.IssueReference{{Index: 3}, {Owner: "owner", Repo: "repo", Index: 4}})
	is.Equal(len(ClosingReferences("no keywords #1")), 0)
}

func TestClosingReferencesBounded(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	for n := 1; n <= 200; n++ {
		b.WriteString("fixes #" + itoa(int64(n)) + " ")
	}
	is.Equal(len(ClosingReferences(b.String())), MaxClosingReferences)
}

func FuzzClosingReferences(f *testing.F) {
	for _, s := range []string{"fixes #1", "Closes: o/r#2.", "resolve #", "fix a/#3", "close #99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		refs := ClosingReferences(s)
		if len(refs) > MaxClosingReferences {
			t.Fatalf("%d references", len(refs))
		}
		for _, r := range refs {
			if r.Index <= 0 || (r.Owner == "") != (r.Repo == "") {
				t.Fatalf("bad reference %+v", r)
			}
		}
	})
}
