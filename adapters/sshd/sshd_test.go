package sshd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/repository"
)

func TestParseCommand(t *testing.T) {
	good := []struct {
		line        string
		svc         repository.GitService
		owner, name string
		wiki        bool
	}{
		{"git-upload-pack 'alice/code.git'", repository.ServiceUploadPack, "alice", "code", false},
		{"git-upload-pack '/alice/code.git'", repository.ServiceUploadPack, "alice", "code", false},
		{"git-receive-pack 'alice/code'", repository.ServiceReceivePack, "alice", "code", false},
		{"git-receive-pack '/alice/code'", repository.ServiceReceivePack, "alice", "code", false},
		{"git-upload-pack alice/code.git", repository.ServiceUploadPack, "alice", "code", false},
		{"git upload-pack '/alice/code.git'", repository.ServiceUploadPack, "alice", "code", false},
		{"git-upload-pack 'my-org/re.po_1.git'", repository.ServiceUploadPack, "my-org", "re.po_1", false},
		{"git-receive-pack 'alice/code.wiki.git'", repository.ServiceReceivePack, "alice", "code", true},
		{"git-upload-pack '/alice/code.wiki'", repository.ServiceUploadPack, "alice", "code", true},
	}
	for _, c := range good {
		t.Run(c.line, func(t *testing.T) {
			is := is.New(t)
			got, err := parseCommand(c.line)
			is.NoErr(err)
			is.Equal(got, gitCommand{service: c.svc, owner: c.owner, name: c.name, wiki: c.wiki})
		})
	}
	bad := []struct {
		line string
		want error
	}{
		{"", errNotGit},
		{"sh", errNotGit},
		{"bash -c id", errNotGit},
		{"git-upload-archive 'alice/code.git'", errNotGit},
		{"git-upload-pack", errBadPath},
		{"git-upload-pack ''", errBadPath},
		{"git-upload-pack '../x'", errBadPath},
		{"git-upload-pack '/../../etc/passwd'", errBadPath},
		{"git-upload-pack 'alice/../code.git'", errBadPath},
		{"git-upload-pack 'alice/..'", errBadPath},
		{"git-upload-pack 'alice/.'", errBadPath},
		{"git-upload-pack 'alice'", errBadPath},
		{"git-upload-pack 'a/b/c.git'", errBadPath},
		{"git-upload-pack '//alice/code.git'", errBadPath},
		{"git-upload-pack '--upload-pack=touch /tmp/x'", errBadPath},
		{"git-upload-pack --help", errBadPath},
		{"git-upload-pack 'alice/code.git' extra", errBadPath},
		{"git-upload-pack 'alice/code.git'; rm -rf /", errBadPath},
		{"git-upload-pack 'alice/code.git", errBadPath},
		{"git-upload-pack 'alice/co'\\''de.git'", errBadPath},
		{"git-upload-pack \"alice/code.git\"", errBadPath},
		{"git-upload-pack '~alice/code.git'", errBadPath},
		{"git-upload-pack 'alice/$(id).git'", errBadPath},
		{"git-upload-pack 'alice/code.git'\n", errNotGit},
		{"git-upload-pack\t'alice/code.git'", errNotGit},
		{"git-upload-pack 'alice/code.git\x00'", errNotGit},
		{"git-upload-pack 'al ice/code.git'", errBadPath},
		{"git-upload-pack 'alice/code.git.git'", errBadPath},
		{"git-upload-pack 'alice/.git'", errBadPath},
		{"git-upload-pack 'al%2Fice/code.git'", errBadPath},
		{"git  upload-pack 'alice/code.git'", errNotGit},
		{"git-upload-pack '" + string(bytes.Repeat([]byte("a"), 600)) + "/x'", errNotGit},
	}
	for _, c := range bad {
		t.Run(c.line, func(t *testing.T) {
			is := is.New(t)
			_, err := parseCommand(c.line)
			is.Equal(err, c.want)
		})
	}
}

func TestLoadHostKey(t *testing.T) {
	is := is.New(t)
	dir := filepath.Join(t.TempDir(), "ssh")
	first, err := LoadHostKey(dir)
	is.NoErr(err)
	is.Equal(first.PublicKey().Type(), "ssh-ed25519")
	fi, err := os.Stat(filepath.Join(dir, HostKeyFile))
	is.NoErr(err)
	is.Equal(fi.Mode().Perm(), os.FileMode(0o600)) // private
	di, err := os.Stat(dir)
	is.NoErr(err)
	is.Equal(di.Mode().Perm(), os.FileMode(0o700))

	again, err := LoadHostKey(dir)
	is.NoErr(err)
	is.True(bytes.Equal(again.PublicKey().Marshal(), first.PublicKey().Marshal())) // kept across starts

	// A key left readable by others is made private again.
	is.NoErr(os.Chmod(filepath.Join(dir, HostKeyFile), 0o644))
	_, err = LoadHostKey(dir)
	is.NoErr(err)
	fi, err = os.Stat(filepath.Join(dir, HostKeyFile))
	is.NoErr(err)
	is.Equal(fi.Mode().Perm(), os.FileMode(0o600))

	// A damaged key is an error, never silently replaced.
	is.NoErr(os.WriteFile(filepath.Join(dir, HostKeyFile), []byte("junk"), 0o600))
	_, err = LoadHostKey(dir)
	is.True(err != nil)
}
