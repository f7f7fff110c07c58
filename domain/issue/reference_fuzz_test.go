package issue

import (
	"strconv"
	"strings"
	"testing"
)

func FuzzFindReferences(f *testing.F) {
	for _, s := range []string{
		"fixes #12 and owner/repo#3, see !4.", "@alice: thanks @Bob. (@carol) [@dave]", "`#1` ```\n#2\n```\n#3",
		"~~~\n@x\n~~~ @y", "#0 #-1 #99999999999999999999 #123456789012345678", "a#1 a/b/c#2 /x#3 @.dot @a..",
		"@it's", "``#5`` `#6", "#7!", "\r\n#8\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		refs := FindReferences(text)
		seen := map[IssueReference]bool{}
		for _, r := range refs.Issues {
			if r.Index <= 0 || (r.Owner == "") != (r.Repo == "") {
				t.Fatalf("reference %+v in %q", r, text)
			}
			marker := "#"
			if r.Pull {
				marker = "!"
			}
			prefix := marker
			if r.Owner != "" {
				prefix = r.Owner + "/" + r.Repo + marker
			}
			if !strings.Contains(text, prefix) || !strings.Contains(text, strconv.FormatInt(r.Index, 10)) {
				t.Fatalf("reference %+v is not written in %q", r, text)
			}
			for _, name := range []string{r.Owner, r.Repo} {
				if strings.IndexFunc(name, func(c rune) bool { return c > 0x7f || !isRefNameChar(byte(c)) }) >= 0 {
					t.Fatalf("reference %+v names an impossible account or repository", r)
				}
			}
			key := IssueReference{Owner: strings.ToLower(r.Owner), Repo: strings.ToLower(r.Repo), Index: r.Index, Pull: r.Pull}
			if seen[key] {
				t.Fatalf("reference %+v listed twice", r)
			}
			seen[key] = true
		}
		users := map[string]bool{}
		for _, m := range refs.Mentions {
			if m == "" || m[0] == '.' || m[len(m)-1] == '.' || !strings.Contains(text, "@"+m) {
				t.Fatalf("mention %q from %q", m, text)
			}
			if strings.IndexFunc(m, func(c rune) bool { return c > 0x7f || !isRefNameChar(byte(c)) }) >= 0 {
				t.Fatalf("mention %q holds characters no name has", m)
			}
			if users[strings.ToLower(m)] {
				t.Fatalf("mention %q listed twice", m)
			}
			users[strings.ToLower(m)] = true
		}
		if strings.ContainsAny(text, "`~") {
			return
		}
		// Text inside a code span refers to nothing.
		if !strings.Contains(text, "\n") {
			if quoted := FindReferences("`" + text + "`"); len(quoted.Issues)+len(quoted.Mentions) > 0 {
				t.Fatalf("code span `%s` refers to %+v", text, quoted)
			}
		}
		// A reference and a mention written after it are always found.
		more := FindReferences(text + " #1 @fuzz-user")
		if !containsRef(more.Issues, IssueReference{Index: 1}) || !containsFold(more.Mentions, "fuzz-user") {
			t.Fatalf("%q followed by #1 and @fuzz-user gave %+v", text, more)
		}
	})
}

func containsRef(list []IssueReference, want IssueReference) bool {
	for _, r := range list {
		if r == want {
			return true
		}
	}
	return false
}

func containsFold(list []string, want string) bool {
	for _, s := range list {
		if strings.EqualFold(s, want) {
			return true
		}
	}
	return false
}
