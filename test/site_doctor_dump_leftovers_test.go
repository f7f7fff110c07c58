package test

import (
	"crypto/rand"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/sys/unix"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/test/testserver"
)

// TestSiteDoctorDumpLeftovers checks the doctor on the folders `depot
// dump` copies the SQLite database into (".dump-<random>/depot.db" beside
// it). While a real dump runs, paused on an archive nobody reads, its
// folder is neither reported nor removed although it is made to look two
// hours old: the dump holds the folder's lock. Beside it, a folder a
// killed dump left two hours ago is reported (the doctor exits non-zero)
// and --fix removes it, without following the link it holds; a folder
// made just now and not yet locked, and a link named as a dump folder to
// one outside the data directory, are left alone. Then the paused dump is
// killed (kill -9): the folder it leaves is the next run's finding, and
// --fix removes it.
//
// On Postgres a dump's snapshot is a read-only transaction and no folder is
// made in the data directory (the test checks that while the dump runs),
// so there is no running dump's folder to spare; a folder left by the
// site's SQLite days is still found and removed.
func TestSiteDoctorDumpLeftovers(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		site := newBackupSite(t, opts...)
		is := is.New(t)
		data := site.srv.DataDir
		onSQLite := site.srv.DSN == ""
		args := append([]string{"doctor", "--skip-fsck", "--data-dir", data}, backupDBArgs(site.srv.DSN)...)
		const crashed = 2 * time.Hour

		// A dump under way: its archive goes to a pipe that is read no
		// further than its first byte (the snapshot is taken before
		// anything is written), and a large file in the repository keeps
		// it writing past what the pipe and its buffer hold.
		big := make([]byte, 3<<20)
		_, _ = rand.Read(big)
		is.NoErr(os.WriteFile(filepath.Join(site.work, "big.bin"), big, 0o644))
		backupGit(t, site.work, "add", ".")
		backupGit(t, site.work, "commit", "-q", "-m", "big")
		backupGit(t, site.work, "push", "-q", site.auth, "main")
		dump := startPausedDump(t, bin, append([]string{"dump", "--data-dir", data, "--file", "-", "--compress", "none",
			"--quiet"}, backupDBArgs(site.srv.DSN)...)...)
		running := dumpFolders(t, data)
		if onSQLite {
			is.Equal(len(running), 1)
			_, err := os.Stat(filepath.Join(data, running[0], sqlstore.SnapshotFile))
			is.NoErr(err) // the copy is made
			// Old by its times: only its lock tells it is in use.
			backdateTree(t, filepath.Join(data, running[0]), crashed)
		} else {
			is.Equal(len(running), 0) // Postgres: no folder while the dump runs
		}

		// A killed dump's folder, holding a link out of the data directory.
		outside := t.TempDir()
		doctorWrite(t, filepath.Join(outside, sqlstore.SnapshotFile), []byte("not the site's"), crashed)
		left := sqlstore.SnapshotDirPrefix + "1234567"
		doctorWrite(t, filepath.Join(data, left, sqlstore.SnapshotFile), []byte("SQLite format 3\x00cut off"), crashed)
		is.NoErr(os.Symlink(filepath.Join(outside, sqlstore.SnapshotFile), filepath.Join(data, left, "link")))
		backdateTree(t, filepath.Join(data, left), crashed)
		// A folder just made, its lock not yet taken.
		fresh := sqlstore.SnapshotDirPrefix + "7654321"
		doctorWrite(t, filepath.Join(data, fresh, sqlstore.SnapshotFile), []byte("being copied"), 0)
		// A link named as a dump folder, to an old one outside.
		elsewhere := t.TempDir()
		doctorWrite(t, filepath.Join(elsewhere, sqlstore.SnapshotFile), []byte("not the site's"), crashed)
		backdateTree(t, elsewhere, crashed)
		link := sqlstore.SnapshotDirPrefix + "x"
		is.NoErr(os.Symlink(elsewhere, filepath.Join(data, link)))

		const finding = ": a temporary folder a cut-off write left (no writer holds it), last written "
		r := backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0)
		is.True(strings.Contains(r.stdout, "temp-file: "+left+finding))
		for _, name := range append([]string{fresh, link}, running...) {
			is.True(!strings.Contains(r.stdout, name))
		}
		is.True(strings.Contains(r.stderr, "1 problem(s) remain"))

		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "temp-file: "+left+finding))
		is.Equal(strings.Count(r.stdout, " (fixed)\n"), 1)
		_, err := os.Lstat(filepath.Join(data, left))
		is.True(os.IsNotExist(err)) // removed
		for _, p := range []string{filepath.Join(outside, sqlstore.SnapshotFile), filepath.Join(elsewhere, sqlstore.SnapshotFile),
			filepath.Join(data, fresh, sqlstore.SnapshotFile)} {
			_, err := os.Stat(p)
			is.NoErr(err) // untouched
		}
		info, err := os.Lstat(filepath.Join(data, link))
		is.NoErr(err)
		is.True(info.Mode()&os.ModeSymlink != 0) // the link stays a link
		for _, name := range running {
			_, err := os.Stat(filepath.Join(data, name, sqlstore.SnapshotFile))
			is.NoErr(err) // the running dump's copy stays
		}
		r = backupDepot(t, bin, args...)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		// The dump killed, its folder is a leftover like any.
		is.True(dump.kill() != nil) // killed while paused, not finished
		for _, name := range running {
			_, err := os.Stat(filepath.Join(data, name, sqlstore.SnapshotFile))
			is.NoErr(err) // left behind
		}
		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix after the dump was killed:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.Equal(strings.Count(r.stdout, " (fixed)\n"), len(running))
		for _, name := range running {
			is.True(strings.Contains(r.stdout, "temp-file: "+name+finding))
			_, err := os.Lstat(filepath.Join(data, name))
			is.True(os.IsNotExist(err))
		}
		is.Equal(dumpFolders(t, data), []string{fresh})
	})
}

// pausedDump is a `depot dump` child blocked writing its archive.
type pausedDump struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// startPausedDump starts depot with args writing to a pipe, waits for the
// first byte of the archive (so the snapshot is taken) and reads no more.
func startPausedDump(t *testing.T, bin string, args ...string) *pausedDump {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	var stderr strings.Builder
	cmd := exec.Command(bin, args...)
	cmd.Env = cliChildEnv(nil)
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	d := &pausedDump{cmd: cmd, done: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		close(d.done)
	}()
	t.Cleanup(func() { _ = d.kill() })
	first := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(r, make([]byte, 1))
		first <- err
	}()
	select {
	case err := <-first:
		if err != nil {
			<-d.done
			t.Fatalf("depot %s wrote nothing: %v (stderr: %s)", strings.Join(args, " "), err, stderr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("depot dump wrote nothing within two minutes")
	}
	return d
}

// kill ends the dump with SIGKILL, as a crash would, waits for it and
// returns how it ended (nil: it had finished by itself).
func (d *pausedDump) kill() error {
	_ = d.cmd.Process.Kill()
	<-d.done
	return d.err
}

// dumpFolders lists the data directory's entries named as a dump's folder.
func dumpFolders(t *testing.T, data string) []string {
	t.Helper()
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), sqlstore.SnapshotDirPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// backdateTree makes dir and everything under it (links themselves, not
// what they point to) last changed age ago.
func backdateTree(t *testing.T, dir string, age time.Duration) {
	t.Helper()
	at := unix.NsecToTimespec(time.Now().Add(-age).UnixNano())
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, []unix.Timespec{at, at}, unix.AT_SYMLINK_NOFOLLOW)
	})
	if err != nil {
		t.Fatal(err)
	}
}
