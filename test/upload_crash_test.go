package test

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestAssetUploadKilledLeavesNoOrphan kills the server (SIGKILL) while a
// large release asset is being uploaded and starts it again on the same
// data directory and database: the restarted server has swept the cut-off
// upload's partial file, every attachment and asset row has its blob and
// every blob its row, and a following upload works.
func TestAssetUploadKilledLeavesNoOrphan(t *testing.T) {
	bin := cliBuildDepot(t)
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			dir := t.TempDir()
			args := []string{"serve", "--data-dir", dir}
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
			admin, err := gitea.NewClient(first.url, gitea.SetBasicAuth("admin", password))
			is.NoErr(err)
			_, _, err = admin.CreateRepo(gitea.CreateRepoOption{Name: "code", AutoInit: true, Readme: "Default"})
			is.NoErr(err)
			rel, _, err := admin.CreateRelease("admin", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
			is.NoErr(err)
			_, _, err = admin.CreateReleaseAttachment("admin", "code", rel.ID, bytes.NewReader(zipBytes(1<<20)), "before.zip")
			is.NoErr(err)
			i, _, err := admin.CreateIssue("admin", "code", gitea.CreateIssueOption{Title: "files"})
			is.NoErr(err)
			_, _, err = admin.CreateIssueAttachment("admin", "code", i.Index, strings.NewReader("notes\n"), "notes.txt")
			is.NoErr(err)

			// A large upload streams until the server dies under it.
			body, feed := io.Pipe()
			go func() {
				chunk := make([]byte, 256<<10)
				if _, err := feed.Write([]byte("PK\x03\x04")); err != nil {
					return
				}
				for {
					if _, err := feed.Write(chunk); err != nil {
						return
					}
				}
			}()
			uploadDone := make(chan struct{})
			go func() {
				defer close(uploadDone)
				req, err := http.NewRequest("POST", first.url+"/api/v1/repos/admin/code/releases/"+itoaTest(rel.ID)+"/assets?name=big.zip", body)
				if err != nil {
					return
				}
				req.SetBasicAuth("admin", password)
				req.Header.Set("Content-Type", "application/octet-stream")
				if resp, err := http.DefaultClient.Do(req); err == nil {
					_ = resp.Body.Close()
				}
			}()
			deadline := time.Now().Add(30 * time.Second)
			for partialUploadBytes(t, dir) < 8<<20 {
				if time.Now().After(deadline) {
					t.Fatalf("the upload never reached the blob store; server log:\n%s", first.stderrText(t))
				}
				time.Sleep(10 * time.Millisecond)
			}
			is.NoErr(first.cmd.Process.Kill()) // SIGKILL: no shutdown, the upload is cut mid-stream
			<-first.done
			_ = feed.CloseWithError(io.ErrClosedPipe)
			<-uploadDone
			is.True(partialUploadBytes(t, dir) > 0) // the kill left a partial file behind

			second := cliStart(t, bin, nil, append(args, "--listen", cliFreeAddr(t))...)
			second.waitReady(t)
			admin, err = gitea.NewClient(second.url, gitea.SetBasicAuth("admin", password))
			is.NoErr(err)
			is.Equal(partialUploadBytes(t, dir), int64(0))
			rows := uploadRows(t, admin, rel.ID, i.Index)
			is.Equal(len(rows), 2) // the cut-off upload has no row
			is.Equal(storedBlobs(t, dir), rows)
			for _, u := range rows {
				resp, _ := downloadAttachment(t, second.url+"/attachments/"+u)
				is.Equal(resp.StatusCode, http.StatusOK) // every row has its bytes
			}

			after := zipBytes(3 << 20)
			a, _, err := admin.CreateReleaseAttachment("admin", "code", rel.ID, bytes.NewReader(after), "after.zip")
			is.NoErr(err)
			resp, got := downloadAttachment(t, a.DownloadURL)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.True(bytes.Equal(got, after))
			is.Equal(storedBlobs(t, dir), uploadRows(t, admin, rel.ID, i.Index))
		})
	}
}

// partialUploadBytes is the size of the partial upload files in the blob
// store under dataDir.
func partialUploadBytes(t *testing.T, dataDir string) int64 {
	t.Helper()
	var n int64
	walkBlobStore(t, dataDir, func(name string, info fs.FileInfo) {
		if strings.HasPrefix(name, ".upload-") {
			n += info.Size()
		}
	})
	return n
}

// storedBlobs lists the files of the blob store under dataDir, sorted.
func storedBlobs(t *testing.T, dataDir string) []string {
	t.Helper()
	var out []string
	walkBlobStore(t, dataDir, func(name string, _ fs.FileInfo) { out = append(out, name) })
	slices.Sort(out)
	return out
}

func walkBlobStore(t *testing.T, dataDir string, fn func(name string, info fs.FileInfo)) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(dataDir, "attachments"), func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fn(d.Name(), info)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// uploadRows lists the UUIDs of the release's assets and the issue's
// attachments, the rows the blob store must match, sorted.
func uploadRows(t *testing.T, c *gitea.Client, releaseID, index int64) []string {
	t.Helper()
	assets, _, err := c.ListReleaseAttachments("admin", "code", releaseID, gitea.ListReleaseAttachmentsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := c.ListIssueAttachments("admin", "code", index)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range append(assets, files...) {
		out = append(out, a.UUID)
	}
	slices.Sort(out)
	return out
}
