package pull

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
)

func TestKeywordReferences(t *testing.T) {
	ref := func(owner, repo string, index int64, action KeywordAction) KeywordReference {
		return KeywordReference{IssueReference: issue.IssueReference{Owner: owner, Repo: repo, Index: index}, Action: action}
	}
	for _, tc := range []struct {
		name, text string
		want       []KeywordReference
	}{
		{"closing words", "Fixes #3, closes: owner/repo#4.\nresolved #5 and mentions #9; Close #x; fix #0 fixes a/b/c#2",
			[]KeywordReference{ref("", "", 3, KeywordCloses), ref("owner", "repo", 4, KeywordCloses), ref("", "", 5, KeywordCloses)}},
		{"every closing word", "close #1 closes #2 closed #3 fix #4 fixes #5 fixed #6 resolve #7 resolves #8 resolved #9",
			[]KeywordReference{ref("", "", 1, KeywordCloses), ref("", "", 2, KeywordCloses), ref("", "", 3, KeywordCloses),
				ref("", "", 4, KeywordCloses), ref("", "", 5, KeywordCloses), ref("", "", 6, KeywordCloses),
				ref("", "", 7, KeywordCloses), ref("", "", 8, KeywordCloses), ref("", "", 9, KeywordCloses)}},
		{"reopening words", "Reopen #1, REOPENS: o/r#2 reopened #3.",
			[]KeywordReference{ref("", "", 1, KeywordReopens), ref("o", "r", 2, KeywordReopens), ref("", "", 3, KeywordReopens)}},
		{"the last keyword wins, where first named", "fixes #1 fixes #2 reopens #1",
			[]KeywordReference{ref("", "", 1, KeywordReopens), ref("", "", 2, KeywordCloses)}},
		{"owner and repository without case", "closes Owner/Repo#4 reopens owner/repo#4",
			[]KeywordReference{ref("Owner", "Repo", 4, KeywordReopens)}},
		{"no keyword", "no keywords #1, reopening #2, fixing #3", nil},
		{"not a reference", "reopen the door #", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(KeywordReferences(tc.text), tc.want)
		})
	}
}

func TestKeywordReferencesBounded(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	for n := 1; n <= 200; n++ {
		b.WriteString("fixes #" + itoa(int64(n)) + " ")
	}
	b.WriteString("reopens #1 reopens #199")
	refs := KeywordReferences(b.String())
	is.Equal(len(refs), MaxKeywordReferences)
	is.Equal(refs[0].Action, KeywordReopens) // a later keyword still reaches a kept reference
}

func FuzzKeywordReferences(f *testing.F) {
	for _, s := range []string{"fixes #1", "Closes: o/r#2.", "resolve #", "fix a/#3", "close #99999999999999999999",
		"reopens #4", "Reopened: o/r#5 fixes #5", "reopen"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		refs := KeywordReferences(s)
		if len(refs) > MaxKeywordReferences {
			t.Fatalf("%d references", len(refs))
		}
		seen := map[issue.IssueReference]bool{}
		for _, r := range refs {
			if r.Index <= 0 || (r.Owner == "") != (r.Repo == "") {
				t.Fatalf("bad reference %+v", r)
			}
			if r.Action != KeywordCloses && r.Action != KeywordReopens {
				t.Fatalf("bad action %+v", r)
			}
			key := issue.IssueReference{Owner: strings.ToLower(r.Owner), Repo: strings.ToLower(r.Repo), Index: r.Index}
			if seen[key] {
				t.Fatalf("issue named twice: %+v", r)
			}
			seen[key] = true
		}
	})
}
