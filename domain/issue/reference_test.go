package issue_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
)

func TestFindReferences(t *testing.T) {
	type ref = issue.IssueReference
	cases := []struct {
		name     string
		text     string
		issues   []ref
		mentions []string
	}{
		{"plain", "see #12", []ref{{Index: 12}}, nil},
		{"start and punctuation", "#1, #2. (#3) [#4]: done", []ref{{Index: 1}, {Index: 2}, {Index: 3}, {Index: 4}}, nil},
		{"adjacent", "#1 #2", []ref{{Index: 1}, {Index: 2}}, nil},
		{"cross repository", "fixed in alice/tools#3!", []ref{{Owner: "alice", Repo: "tools", Index: 3}}, nil},
		{"pull", "merged !7", []ref{{Index: 7, Pull: true}}, nil},
		{"repeated once", "#5 and #5 and ALICE/x#1 alice/X#1", []ref{{Index: 5}, {Owner: "ALICE", Repo: "x", Index: 1}}, nil},
		{"inside a word", "abc#12 x#1y #12abc", nil, nil},
		{"url fragment", "http://host/a/b#12 and https://x.y/#3", nil, nil},
		{"zero and huge", "#0 #99999999999999999999", nil, nil},
		{"punctuation glued", "#12.5 #3,4", nil, nil},
		{"code", "`#1` and\n```\n#2 @bob\n```\n#3 ``x #4 ``", []ref{{Index: 3}}, nil},
		{"mentions", "hi @bob, @Carol. and @bob again (@dave) @eve's mail@x.y @", nil, []string{"bob", "Carol", "dave", "eve"}},
		{"mention trailing dots", "ask @bob.", nil, []string{"bob"}},
		{"mixed", "@bob see #2", []ref{{Index: 2}}, []string{"bob"}},
		{"empty", "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got := issue.FindReferences(c.text)
			is.Equal(got.Issues, c.issues)
			is.Equal(got.Mentions, c.mentions)
		})
	}
}

// TestFindReferencesBounded checks that a text records at most
// MaxReferences distinct issue references and as many mentions, the first
// ones, however many it holds; repeats do not count twice.
func TestFindReferencesBounded(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "#%d @user%d #1 ", i, i)
	}
	got := issue.FindReferences(b.String())
	is.Equal(len(got.Issues), issue.MaxReferences)
	is.Equal(len(got.Mentions), issue.MaxReferences)
	is.Equal(got.Issues[0].Index, int64(1))
	is.Equal(got.Issues[issue.MaxReferences-1].Index, int64(issue.MaxReferences))
	is.Equal(got.Mentions[issue.MaxReferences-1], fmt.Sprintf("user%d", issue.MaxReferences))
}

// TestAddedMentions checks that an edit's new mentions are those the text
// did not name before, whatever their case, in the order the edit names them.
func TestAddedMentions(t *testing.T) {
	is := is.New(t)
	is.Equal(issue.AddedMentions("hi @bob", "hi @BOB and @carol, @dave"), []string{"carol", "dave"})
	is.Equal(issue.AddedMentions("", "@eve"), []string{"eve"})
	is.Equal(issue.AddedMentions("@eve @bob", "@bob"), []string(nil))
	is.Equal(issue.AddedMentions("@eve", "`@frank`"), []string(nil))
}
