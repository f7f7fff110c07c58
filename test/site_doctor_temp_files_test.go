package test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/node"
	"github.com/depothq/depot/adapters/sshd"
	"github.com/depothq/depot/test/testserver"
)

// TestSiteDoctorTempFiles leaves, in the data directory of a running
// server, the temporary file of every writer that writes aside and renames
// into place, as a crash two hours ago would have, and checks that the
// doctor reports each and exits non-zero, that --fix removes them and a
// second run is clean, and that it neither reports nor touches what is no
// leftover: the same files written just now (a write under way), an old
// upload a live writer still holds, a file of another name, and anything
// reached through a symbolic link (the link's target, outside the data
// directory, stays).
func TestSiteDoctorTempFiles(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		site := newBackupSite(t, opts...)
		is := is.New(t)
		data := site.srv.DataDir
		args := append([]string{"doctor", "--skip-fsck", "--data-dir", data}, backupDBArgs(site.srv.DSN)...)
		r := backupDepot(t, bin, args...)
		t.Logf("doctor on a healthy site:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)

		const crashed = 2 * time.Hour
		left := []string{
			"attachments/3/f/.upload-1234.tmp",
			"packages/incoming/.upload-5678.tmp",
			"actions_artifacts/uploads/7/.upload-91.tmp",
			"actions_log/07/.upload-92.tmp",
			"avatars/.avatar-93.tmp",
			node.IDFile + ".tmp",
			".site-key-94",
			"jwt/.oauth2-key-95",
			"signing/.signing-key-96",
			"ssh/." + sshd.HostKeyFile + "-97",
			"hooks/.pre-receive-98",
			"repos/.moves/repo-1-1764400000000000000.json.tmp",
			"repos/wren/nest.git/depot-commit-counts.tmp",
			"repos/wren/nest.git/depot-path-index/0123456789abcdef01234567/.tmp-99",
			"repos/wren/nest.git/hooks/post-receive.d/.post-receive-100",
		}
		for _, name := range left {
			doctorWrite(t, filepath.Join(data, name), []byte("half"), crashed)
		}
		fresh := []string{"attachments/a/b/.upload-2001.tmp", "avatars/.avatar-2002.tmp", "hooks/.update-2003",
			"repos/wren/nest.git/depot-commit-counts.tmp.keep"}
		for _, name := range fresh[:3] {
			doctorWrite(t, filepath.Join(data, name), []byte("being written"), 0)
		}
		// Old, but not a temporary file: no writer's name.
		doctorWrite(t, filepath.Join(data, fresh[3]), []byte("kept"), crashed)
		// An old upload a live writer holds (as Put holds it until its row
		// commits).
		heldName := "packages/incoming/.upload-3001.tmp"
		doctorWrite(t, filepath.Join(data, heldName), []byte("uploading"), crashed)
		f, err := os.Open(filepath.Join(data, heldName))
		is.NoErr(err)
		defer f.Close()
		is.NoErr(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
		// Links out of the data directory: a link named as a temporary
		// file, and a repository folder that is a link to one holding one.
		outside := t.TempDir()
		doctorWrite(t, filepath.Join(outside, ".avatar-4001.tmp"), []byte("not the site's"), crashed)
		doctorWrite(t, filepath.Join(outside, "depot-commit-counts.tmp"), []byte("not the site's"), crashed)
		is.NoErr(os.Symlink(filepath.Join(outside, ".avatar-4001.tmp"), filepath.Join(data, "avatars", ".avatar-4002.tmp")))
		is.NoErr(os.Symlink(outside, filepath.Join(data, "repos", "wren", "linked.git")))

		r = backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0)
		for _, name := range left {
			is.True(strings.Contains(r.stdout, "temp-file: "+name+": a temporary file a cut-off write left, last written "))
		}
		for _, name := range append(fresh, heldName, ".avatar-4001.tmp", ".avatar-4002.tmp", "linked.git") {
			is.True(!strings.Contains(r.stdout, name))
		}
		is.True(strings.Contains(r.stderr, "15 problem(s) remain"))

		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		for _, name := range left {
			is.True(strings.Contains(r.stdout, "temp-file: "+name+": "))
			_, err := os.Lstat(filepath.Join(data, name))
			is.True(os.IsNotExist(err)) // removed
		}
		is.Equal(strings.Count(r.stdout, " (fixed)\n"), len(left))
		for _, name := range append(fresh, heldName, "avatars/.avatar-4002.tmp") {
			_, err := os.Lstat(filepath.Join(data, name))
			is.NoErr(err) // untouched
		}
		for _, name := range []string{".avatar-4001.tmp", "depot-commit-counts.tmp"} {
			_, err := os.Stat(filepath.Join(outside, name))
			is.NoErr(err) // outside the data directory: untouched
		}

		r = backupDepot(t, bin, args...)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		// The writer gone (its lock dropped), its old upload is a leftover.
		is.NoErr(f.Close())
		r = backupDepot(t, bin, append(args, "--fix")...)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "temp-file: "+heldName+": "))
		_, err = os.Stat(filepath.Join(data, heldName))
		is.True(os.IsNotExist(err))
	})
}
