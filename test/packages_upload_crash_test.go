package test

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// streamForever sends chunks through a pipe until it is closed.
func streamForever() (*io.PipeReader, *io.PipeWriter) {
	body, feed := io.Pipe()
	go func() {
		chunk := make([]byte, 256<<10)
		for {
			if _, err := feed.Write(chunk); err != nil {
				return
			}
		}
	}()
	return body, feed
}

// bytesUnder sums the sizes of the regular files under dir whose names
// keep says; a missing dir is 0.
func bytesUnder(t *testing.T, dir string, keep func(name string) bool) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() && keep(d.Name()) {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPackageUploadKilledLeavesNothingHalfVisible kills the server
// (SIGKILL) while a generic package file and a container blob (a chunked
// OCI upload) are streaming in, and starts it again on the same data
// directory and database: no version or file of either is listed or
// served, the generic upload's partial file is gone at start and the
// container upload's by the cleanup_packages task run at start (with
// older_than 0), no package blob is left, and a following upload works.
func TestPackageUploadKilledLeavesNothingHalfVisible(t *testing.T) {
	bin := cliBuildDepot(t)
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			dir := t.TempDir()
			// Bodies may stream for as long as the test needs.
			args := []string{"serve", "--data-dir", dir, "--max-body-bytes", "1099511627776"}
			if backend == "postgres" {
				args = append(args, "--db", testserver.CreatePostgresDB(t))
			}
			first := cliStart(t, bin, nil, append(args, "--listen", cliFreeAddr(t))...)
			first.waitReady(t)
			m := regexp.MustCompile(`administrator account created: username admin, password (\S+)`).FindStringSubmatch(first.stderrText(t))
			if m == nil {
				t.Fatalf("no administrator password in the log:\n%s", first.stderrText(t))
			}
			password := m[1]
			partialGeneric := func() int64 {
				return bytesUnder(t, filepath.Join(dir, "packages"), func(n string) bool { return strings.HasPrefix(n, ".upload-") })
			}
			containerUploads := func() int64 {
				return bytesUnder(t, filepath.Join(dir, "packages-uploads"), func(string) bool { return true })
			}
			blobs := func() int64 {
				return bytesUnder(t, filepath.Join(dir, "packages"), func(n string) bool { return len(n) == 64 })
			}

			// The container registry's bearer token and an upload session.
			req, err := http.NewRequest("GET", first.url+"/v2/token", nil)
			is.NoErr(err)
			req.SetBasicAuth("admin", password)
			resp, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			var tok struct {
				Token string `json:"token"`
			}
			is.NoErr(json.NewDecoder(resp.Body).Decode(&tok))
			_ = resp.Body.Close()
			req, err = http.NewRequest("POST", first.url+"/v2/admin/img/blobs/uploads/", nil)
			is.NoErr(err)
			req.Header.Set("Authorization", "Bearer "+tok.Token)
			resp, err = http.DefaultClient.Do(req)
			is.NoErr(err)
			_ = resp.Body.Close()
			is.Equal(resp.StatusCode, http.StatusAccepted)
			location := resp.Header.Get("Location")

			// Both uploads stream until the server dies under them.
			genericBody, genericFeed := streamForever()
			chunkBody, chunkFeed := streamForever()
			done := make(chan struct{}, 2)
			send := func(req *http.Request) {
				defer func() { done <- struct{}{} }()
				if resp, err := http.DefaultClient.Do(req); err == nil {
					_ = resp.Body.Close()
				}
			}
			req, err = http.NewRequest("PUT", first.url+"/api/packages/admin/generic/big/1.0/big.bin", genericBody)
			is.NoErr(err)
			req.SetBasicAuth("admin", password)
			go send(req)
			req, err = http.NewRequest("PATCH", first.url+location, chunkBody)
			is.NoErr(err)
			req.Header.Set("Authorization", "Bearer "+tok.Token)
			req.Header.Set("Content-Type", "application/octet-stream")
			go send(req)
			deadline := time.Now().Add(30 * time.Second)
			for partialGeneric() < 8<<20 || containerUploads() < 8<<20 {
				if time.Now().After(deadline) {
					t.Fatalf("the uploads never reached the disk; server log:\n%s", first.stderrText(t))
				}
				time.Sleep(10 * time.Millisecond)
			}
			is.NoErr(first.cmd.Process.Kill()) // SIGKILL: no shutdown, both uploads cut mid-stream
			<-first.done
			_ = genericFeed.CloseWithError(io.ErrClosedPipe)
			_ = chunkFeed.CloseWithError(io.ErrClosedPipe)
			<-done
			<-done
			is.True(partialGeneric() > 0) // the kill left partial data behind
			is.True(containerUploads() > 0)

			// The restarted server's cleanup_packages run at start removes
			// container uploads idle for any time at all.
			second := cliStart(t, bin, nil, append(args, "--cron-cleanup-packages-older-than", "0s",
				"--listen", cliFreeAddr(t))...)
			second.waitReady(t)
			is.Equal(partialGeneric(), int64(0)) // swept before serving
			deadline = time.Now().Add(30 * time.Second)
			for containerUploads() > 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the container upload was not swept; server log:\n%s", second.stderrText(t))
				}
				time.Sleep(20 * time.Millisecond)
			}
			is.Equal(blobs(), int64(0))

			// Nothing is half-visible: no package, no file, no image.
			admin, err := gitea.NewClient(second.url, gitea.SetBasicAuth("admin", password))
			is.NoErr(err)
			list, _, err := admin.ListPackages("admin", gitea.ListPackagesOptions{})
			is.NoErr(err)
			is.Equal(len(list), 0)
			get := func(url string, header ...string) int {
				req, err := http.NewRequest("GET", url, nil)
				is.NoErr(err)
				req.SetBasicAuth("admin", password)
				for i := 0; i+1 < len(header); i += 2 {
					req.Header.Set(header[i], header[i+1])
				}
				resp, err := http.DefaultClient.Do(req)
				is.NoErr(err)
				_ = resp.Body.Close()
				return resp.StatusCode
			}
			is.Equal(get(second.url+"/api/packages/admin/generic/big/1.0/big.bin"), http.StatusNotFound)
			is.Equal(get(second.url+location, "Authorization", "Bearer "+tok.Token), http.StatusNotFound)
			is.Equal(get(second.url+"/v2/admin/img/tags/list", "Authorization", "Bearer "+tok.Token), http.StatusNotFound)

			// A following upload works.
			req, err = http.NewRequest("PUT", second.url+"/api/packages/admin/generic/big/1.0/big.bin", strings.NewReader("whole"))
			is.NoErr(err)
			req.SetBasicAuth("admin", password)
			resp, err = http.DefaultClient.Do(req)
			is.NoErr(err)
			_ = resp.Body.Close()
			is.Equal(resp.StatusCode, http.StatusCreated)
			is.Equal(blobs(), int64(len("whole")))
		})
	}
}
