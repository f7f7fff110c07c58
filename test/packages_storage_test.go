package test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestPackagesSizeLimit refuses a package file over site.package_max_bytes
// with 413 and stores nothing of it, on both backends.
func TestPackagesSizeLimit(t *testing.T) {
	t.Parallel()
	backendsWith(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		socialAccounts(t, srv, "alice")
		url := srv.URL + "/api/packages/alice/generic/tool/1/f.bin"
		r := srv.Do("PUT", url, "01234567890", basicAs("alice")...)
		is.Equal(r.Status, http.StatusRequestEntityTooLarge)
		is.Equal(countPackageBlobs(t, srv), 0)
		is.Equal(srv.Do("GET", url, nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("PUT", url, "0123456789", basicAs("alice")...).Status, http.StatusCreated)
	}, testserver.WithSettings(func(s *site.Settings) { s.PackageMaxBytes = 10 }))
}

// TestPackagesBlobSweep: what a crash leaves in the package blob store (a
// blob written but never recorded, a cut-off upload) is removed at the
// next start, and recorded blobs stay.
func TestPackagesBlobSweep(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	data := t.TempDir()
	srv := testserver.Start(t, testserver.WithDataDir(data))
	socialAccounts(t, srv, "alice")
	const path = "/api/packages/alice/generic/tool/1/kept.bin"
	is.Equal(srv.Do("PUT", srv.URL+path, "kept", basicAs("alice")...).Status, http.StatusCreated)
	srv.Stop()

	sum := sha256.Sum256([]byte("orphan"))
	orphanSum := hex.EncodeToString(sum[:])
	orphan := filepath.Join(data, "packages", orphanSum[0:2], orphanSum[2:4], orphanSum)
	partial := filepath.Join(data, "packages", "incoming", ".upload-42.tmp")
	old := time.Now().Add(-time.Hour)
	for p, content := range map[string]string{orphan: "orphan", partial: "half"} {
		is.NoErr(os.MkdirAll(filepath.Dir(p), 0o700))
		is.NoErr(os.WriteFile(p, []byte(content), 0o600))
		is.NoErr(os.Chtimes(p, old, old))
	}

	again := testserver.Start(t, testserver.WithDataDir(data))
	for _, p := range []string{orphan, partial} {
		_, err := os.Stat(p)
		is.True(errors.Is(err, os.ErrNotExist)) // swept
	}
	r := again.Do("GET", again.URL+path, nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(string(r.Body), "kept")
}
