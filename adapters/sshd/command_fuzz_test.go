package sshd

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// FuzzParseCommand fuzzes the exec line an SSH client sends: anything but
// a Git service on owner/name is refused with one of the two messages the
// client is shown, and an accepted line names a valid account and
// repository that reads back from the canonical line.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"git-upload-pack 'alice/repo.git'", "git-receive-pack '/alice/repo.git'", "git upload-pack alice/repo",
		"git-upload-archive 'a/b'", "git-upload-pack '../etc/passwd'", "git-upload-pack 'a/b' --upload-pack=x", "sh -c id",
		"git-upload-pack 'a/b/c'", "git-upload-pack ''", "git-upload-pack 'a/.git'", "git-upload-pack 'a/b.git.git'", "git-upload-pack \"a/b\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := parseCommand(line)
		if err != nil {
			if !errors.Is(err, errNotGit) && !errors.Is(err, errBadPath) {
				t.Fatalf("parseCommand(%q) = %v", line, err)
			}
			return
		}
		if c.service != repository.ServiceUploadPack && c.service != repository.ServiceReceivePack {
			t.Fatalf("service %q from %q", c.service, line)
		}
		if user.ValidateName("owner", c.owner) != nil || repository.ValidateName("name", c.name) != nil ||
			strings.Contains(c.owner+"/"+c.name, "..") && strings.Trim(c.name, ".") == "" {
			t.Fatalf("parseCommand(%q) names %q/%q", line, c.owner, c.name)
		}
		again, err := parseCommand(string(c.service) + " '" + c.owner + "/" + c.name + ".git'")
		if err != nil || again != c {
			t.Fatalf("canonical form of %q reads as %+v, %v", line, again, err)
		}
	})
}
