package outbound

import "testing"

func TestRemoteHeadParsing(t *testing.T) {
	id := "0123456789012345678901234567890123456789"
	for out, want := range map[string]string{
		"ref: refs/heads/trunk\tHEAD\n" + id + "\tHEAD\n":     "trunk",
		"ref: refs/heads/feature/x\tHEAD\n" + id + "\tHEAD\n": "feature/x",
		id + "\tHEAD\n":                     "",
		"":                                  "",
		"ref: refs/tags/v1\tHEAD\n":         "",
		"ref: refs/heads/a\trefs/heads/b\n": "",
		"warning: ignored\nref: refs/heads/dev\tHEAD\n": "dev",
		"ref: refs/heads/\tHEAD\n":                      "",
	} {
		if got := remoteHead(out); got != want {
			t.Errorf("remoteHead(%q) = %q, want %q", out, got, want)
		}
	}
}
