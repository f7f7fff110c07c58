package test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestSiteDoctorPackages publishes package files, then loses one's blob
// and leaves a blob no row names, and checks that the doctor reports the
// row whose blob is gone (naming the file that uses it) and the orphan,
// not the whole blobs nor a blob an upload under way still holds (written
// before its row commits), and exits non-zero; that --fix removes the
// orphan and leaves the lost blob's row reported (its bytes cannot be made
// again); and that once the blob is put back from a backup the doctor is
// clean and the file downloads again.
func TestSiteDoctorPackages(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		is := is.New(t)
		socialAccounts(t, srv, "alice")
		const base = "/api/packages/alice/generic/tool/1/"
		is.Equal(srv.Do("PUT", srv.URL+base+"kept.bin", "kept", basicAs("alice")...).Status, http.StatusCreated)
		is.Equal(srv.Do("PUT", srv.URL+base+"lost.bin", "lost", basicAs("alice")...).Status, http.StatusCreated)
		blob := func(content string) (string, string) {
			sum := sha256.Sum256([]byte(content))
			s := hex.EncodeToString(sum[:])
			return s, filepath.Join(srv.DataDir, "packages", s[0:2], s[2:4], s)
		}
		keptSum, _ := blob("kept")
		lostSum, lostPath := blob("lost")

		args := append([]string{"doctor", "--skip-fsck", "--data-dir", srv.DataDir}, backupDBArgs(srv.DSN)...)
		r := backupDepot(t, bin, args...)
		t.Logf("doctor on a healthy site:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		backup, err := os.ReadFile(lostPath)
		is.NoErr(err)
		is.NoErr(os.Remove(lostPath))
		orphanSum, orphanPath := blob("orphan")
		doctorWrite(t, orphanPath, []byte("orphan"), time.Minute)
		// A blob whose upload is under way: stored, held until its row
		// commits.
		uploadingSum, uploadingPath := blob("uploading")
		doctorWrite(t, uploadingPath, []byte("uploading"), time.Hour)
		f, err := os.Open(uploadingPath)
		is.NoErr(err)
		defer f.Close()
		is.NoErr(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))

		r = backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0)
		is.True(strings.Contains(r.stdout, "blob-orphan: package blob "+orphanSum+": no package file row names it\n"))
		is.True(strings.Contains(r.stdout, "blob-missing: package blob "+lostSum+
			": its row (4 bytes) names a file that is gone; used by generic alice/tool 1 lost.bin\n"))
		is.True(!strings.Contains(r.stdout, keptSum))
		is.True(!strings.Contains(r.stdout, uploadingSum))
		is.True(strings.Contains(r.stderr, "2 problem(s) remain"))

		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0) // the lost blob is still lost
		is.True(strings.Contains(r.stdout, "package blob "+orphanSum+": no package file row names it (fixed)\n"))
		is.True(strings.Contains(r.stdout, "blob-missing: package blob "+lostSum+": its row (4 bytes) names a file that is gone; used by generic alice/tool 1 lost.bin\n"))
		is.True(strings.Contains(r.stderr, "1 problem(s) remain"))
		_, err = os.Stat(orphanPath)
		is.True(os.IsNotExist(err))
		_, err = os.Stat(uploadingPath)
		is.NoErr(err) // held: left alone
		got := srv.Do("GET", srv.URL+base+"kept.bin", nil)
		is.Equal(got.Status, http.StatusOK)
		is.Equal(string(got.Body), "kept")

		// The admin puts the blob back from a backup.
		is.NoErr(f.Close())
		is.NoErr(os.Remove(uploadingPath))
		doctorWrite(t, lostPath, backup, 0)
		r = backupDepot(t, bin, args...)
		t.Logf("doctor after the blob came back:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))
		got = srv.Do("GET", srv.URL+base+"lost.bin", nil)
		is.Equal(got.Status, http.StatusOK)
		is.Equal(string(got.Body), "lost")
	})
}
