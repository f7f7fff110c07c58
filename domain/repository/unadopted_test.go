package repository

import "testing"

func TestMatchUnadopted(t *testing.T) {
	cases := []struct {
		pattern, owner, name string
		want                 bool
	}{
		{"", "alice", "repo", true},
		{"ali", "alice", "repo", true},
		{"REP", "alice", "repo", true},
		{"bob", "alice", "repo", false},
		{"alice/*", "alice", "repo", true},
		{"alice/", "alice", "repo", true},
		{"/re*", "alice", "repo", true},
		{"*/x*", "alice", "repo", false},
		{"a*/r?po", "alice", "repo", true},
		{"[/x", "alice", "repo", false},
	}
	for _, c := range cases {
		if got := MatchUnadopted(c.pattern, c.owner, c.name); got != c.want {
			t.Errorf("MatchUnadopted(%q, %q, %q) = %v, want %v", c.pattern, c.owner, c.name, got, c.want)
		}
	}
}

func FuzzMatchUnadopted(f *testing.F) {
	for _, p := range []string{"", "a", "a/b", "*/[", "/", "[]"} {
		f.Add(p, "owner", "name")
	}
	f.Fuzz(func(t *testing.T, pattern, owner, name string) {
		_ = MatchUnadopted(pattern, owner, name)
		if !MatchUnadopted("", owner, name) {
			t.Fatal("the empty pattern must select everything")
		}
	})
}
