package libgit2_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// archiveRepo is a fixture repository built with the git CLI.
type archiveRepo struct {
	s    *libgit2.Storage
	p    ports.RepoPath
	bare string
	work string
}

// archiveGit runs git in dir with a clean configuration and fixed
// identities, returning its raw standard output.
func archiveGit(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Archivist", "GIT_AUTHOR_EMAIL=archivist@example.com",
		"GIT_COMMITTER_NAME=Archivist", "GIT_COMMITTER_EMAIL=archivist@example.com",
		"GIT_AUTHOR_DATE=2024-06-01T10:00:00+02:00", "GIT_COMMITTER_DATE=2024-06-01T10:00:00+02:00")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// archiveWrite writes a file of the fixture's work tree.
func archiveWrite(t testing.TB, work, path, content string, mode os.FileMode) {
	t.Helper()
	full := filepath.Join(work, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(full, mode); err != nil {
		t.Fatal(err)
	}
}

// archiveLongPath is longer than the 100 bytes a plain tar header holds.
var archiveLongPath = strings.Repeat("d", 60) + "/" + strings.Repeat("f", 80) + ".txt"

// newArchiveRepo builds a repository with every kind of entry: regular,
// executable, empty and binary files, symbolic links to a file and to a
// directory, a submodule, unicode and long names; a branch with a slash and
// an annotated tag.
func newArchiveRepo(t *testing.T) *archiveRepo {
	t.Helper()
	s, root := newStorage(t)
	r := &archiveRepo{s: s, p: ports.RepoPath{Owner: "alice", Name: "Tools"}, work: t.TempDir()}
	if err := s.Init(context.Background(), r.p, "main"); err != nil {
		t.Fatal(err)
	}
	r.bare = repoDir(root, r.p)
	w := r.work
	archiveGit(t, w, "init", "-q", "-b", "main")
	archiveWrite(t, w, "README.md", "# Tools\n", 0o644)
	archiveWrite(t, w, "run.sh", "#!/bin/sh\necho hi\n", 0o755)
	archiveWrite(t, w, "dir/nested/deep.txt", "deep\n", 0o644)
	archiveWrite(t, w, "dir/empty", "", 0o644)
	archiveWrite(t, w, "ünïcödé/文件.txt", "unicode\n", 0o644)
	archiveWrite(t, w, archiveLongPath, "long\n", 0o644)
	bin := make([]byte, 256)
	for i := range bin {
		bin[i] = byte(i)
	}
	archiveWrite(t, w, "bin.dat", string(bin), 0o644)
	// Big enough to be probed: random bytes are stored, text deflated, and
	// a file whose start compresses but whose middle does not is stored.
	rng := rand.NewChaCha8([32]byte{1})
	random := make([]byte, 300<<10)
	_, _ = rng.Read(random)
	archiveWrite(t, w, "big/random.bin", string(random), 0o644)
	archiveWrite(t, w, "big/text.txt", strings.Repeat("all work and no play\n", 20000), 0o755)
	archiveWrite(t, w, "big/mixed.bin", strings.Repeat("header\n", 5000)+string(random[:200<<10]), 0o644)
	archiveWrite(t, w, ".gitmodules", "[submodule \"sub\"]\n\tpath = sub\n\turl = https://example.com/sub.git\n", 0o644)
	for link, target := range map[string]string{"link": "README.md", "dirlink": "dir/nested"} {
		if err := os.Symlink(target, filepath.Join(w, link)); err != nil {
			t.Fatal(err)
		}
	}
	archiveGit(t, w, "add", "-A")
	archiveGit(t, w, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
	archiveGit(t, w, "commit", "-q", "-m", "first")
	archiveGit(t, w, "tag", "-a", "-m", "release", "v1.0")
	archiveGit(t, w, "checkout", "-q", "-b", "feature/x")
	archiveWrite(t, w, "feature.txt", "feature\n", 0o644)
	archiveGit(t, w, "add", "feature.txt") // not -A: the submodule has no work tree
	archiveGit(t, w, "commit", "-q", "-m", "feature")
	archiveGit(t, w, "push", "-q", r.bare, "main", "feature/x", "v1.0")
	return r
}

// archiveOf streams the adapter's archive of ref into memory.
func archiveOf(t *testing.T, r *archiveRepo, ref string, format ports.ArchiveFormat) []byte {
	t.Helper()
	a, err := r.s.OpenArchive(context.Background(), r.p, ref, format, r.p.Name+"/")
	if err != nil {
		t.Fatalf("OpenArchive %s: %v", ref, err)
	}
	defer a.Close()
	var buf bytes.Buffer
	if err := a.Stream(context.Background(), &buf); err != nil {
		t.Fatalf("Stream %s: %v", ref, err)
	}
	return buf.Bytes()
}

// archiveTarEntry is what a tar entry says about one path.
type archiveTarEntry struct {
	Type     byte
	Mode     int64
	Data     string
	Link     string
	Unix     int64
	Uname    string
	PAXGlobl map[string]string
}

// archiveReadTar unpacks a tar stream in order.
func archiveReadTar(t testing.TB, r io.Reader) ([]string, map[string]archiveTarEntry) {
	t.Helper()
	tr := tar.NewReader(r)
	var names []string
	entries := map[string]archiveTarEntry{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names, entries
		}
		if err != nil {
			t.Fatalf("read tar: %v", err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("read tar entry %s: %v", h.Name, err)
		}
		e := archiveTarEntry{Type: h.Typeflag, Mode: h.Mode, Data: string(data), Link: h.Linkname,
			Unix: h.ModTime.Unix(), Uname: h.Uname}
		if h.Typeflag == tar.TypeXGlobalHeader {
			e = archiveTarEntry{Type: h.Typeflag, PAXGlobl: h.PAXRecords}
		}
		names = append(names, h.Name)
		entries[h.Name] = e
	}
}

// archiveZipEntry is what a zip entry says about one path.
type archiveZipEntry struct {
	Creator uint16
	Attrs   uint32
	Data    string
	Unix    int64
}

// archiveReadZip unpacks a zip file in order.
func archiveReadZip(t testing.TB, data []byte) ([]string, map[string]archiveZipEntry) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("read zip: %v", err)
	}
	var names []string
	entries := map[string]archiveZipEntry{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("open %s: %v", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("read %s: %v", f.Name, err)
		}
		names = append(names, f.Name)
		entries[f.Name] = archiveZipEntry{Creator: f.CreatorVersion >> 8, Attrs: f.ExternalAttrs, Data: string(b),
			Unix: f.Modified.Unix()}
	}
	return names, entries
}

func TestArchiveTarGzMatchesGitArchive(t *testing.T) {
	t.Parallel()
	r := newArchiveRepo(t)
	for _, ref := range []string{"main", "feature/x", "v1.0"} {
		t.Run(ref, func(t *testing.T) {
			is := is.New(t)
			gz, err := gzip.NewReader(bytes.NewReader(archiveOf(t, r, ref, ports.ArchiveTarGz)))
			is.NoErr(err)
			gotNames, got := archiveReadTar(t, gz)
			wantNames, want := archiveReadTar(t, bytes.NewReader(
				archiveGit(t, r.bare, "archive", "--format=tar", "--prefix=Tools/", ref)))
			is.Equal(gotNames, wantNames) // same entries in the same order
			for _, name := range wantNames {
				if got[name].Type != want[name].Type || got[name].Mode != want[name].Mode ||
					got[name].Data != want[name].Data || got[name].Link != want[name].Link ||
					got[name].Unix != want[name].Unix || got[name].Uname != want[name].Uname {
					t.Errorf("%s: got %+v, want %+v", name, got[name], want[name])
				}
			}
			is.Equal(got["pax_global_header"].PAXGlobl, want["pax_global_header"].PAXGlobl) // the commit id
			is.Equal(got["Tools/link"].Link, "README.md")
			is.Equal(got["Tools/run.sh"].Mode, int64(0o775))
			is.Equal(got["Tools/sub/"].Type, byte(tar.TypeDir))
			is.Equal(got["Tools/"+archiveLongPath].Data, "long\n")
			is.Equal(len(got["Tools/big/random.bin"].Data), 300<<10)
		})
	}
	// GNU gzip and tar read the stream too (stored and compressed blocks
	// mixed in one member), and unpack what git archive holds.
	file := filepath.Join(t.TempDir(), "main.tar.gz")
	if err := os.WriteFile(file, archiveOf(t, r, "main", ports.ArchiveTarGz), 0o644); err != nil {
		t.Fatal(err)
	}
	archiveCLI(t, "gzip", "-t", file)
	ours, theirs := t.TempDir(), t.TempDir()
	archiveCLI(t, "tar", "-xzf", file, "-C", ours)
	gitTar := filepath.Join(t.TempDir(), "git.tar")
	if err := os.WriteFile(gitTar, archiveGit(t, r.bare, "archive", "--format=tar", "--prefix=Tools/", "main"), 0o644); err != nil {
		t.Fatal(err)
	}
	archiveCLI(t, "tar", "-xf", gitTar, "-C", theirs)
	archiveCLI(t, "diff", "-r", "--no-dereference", ours, theirs)
}

// archiveCLI runs a command line tool, failing the test on error.
func archiveCLI(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func TestArchiveZipIsReadByUnzip(t *testing.T) {
	t.Parallel()
	r := newArchiveRepo(t)
	file := filepath.Join(t.TempDir(), "main.zip")
	if err := os.WriteFile(file, archiveOf(t, r, "main", ports.ArchiveZip), 0o644); err != nil {
		t.Fatal(err)
	}
	archiveCLI(t, "unzip", "-tq", file)
	ours := t.TempDir()
	archiveCLI(t, "unzip", "-q", file, "-d", ours)
	theirs, gitZip := t.TempDir(), filepath.Join(t.TempDir(), "git.zip")
	if err := os.WriteFile(gitZip, archiveGit(t, r.bare, "archive", "--format=zip", "--prefix=Tools/", "main"), 0o644); err != nil {
		t.Fatal(err)
	}
	archiveCLI(t, "unzip", "-q", gitZip, "-d", theirs)
	archiveCLI(t, "diff", "-r", "--no-dereference", ours, theirs)
}

func TestArchiveEntriesMatchMethods(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := newArchiveRepo(t)
	data := archiveOf(t, r, "main", ports.ArchiveZip)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	is.NoErr(err)
	methods := map[string]uint16{}
	for _, f := range zr.File {
		methods[f.Name] = f.Method
	}
	is.Equal(methods["Tools/big/random.bin"], zip.Store)
	is.Equal(methods["Tools/big/mixed.bin"], zip.Store)
	is.Equal(methods["Tools/big/text.txt"], zip.Deflate)
	is.Equal(methods["Tools/README.md"], zip.Deflate)
	// Stored data is not bigger than the blob: nothing was deflated twice.
	for _, f := range zr.File {
		if f.Method == zip.Store && f.CompressedSize64 != f.UncompressedSize64 {
			t.Errorf("%s: stored %d bytes for %d", f.Name, f.CompressedSize64, f.UncompressedSize64)
		}
	}
}

func TestArchiveZipMatchesGitArchive(t *testing.T) {
	t.Parallel()
	r := newArchiveRepo(t)
	for _, ref := range []string{"main", "feature/x", "v1.0"} {
		t.Run(ref, func(t *testing.T) {
			is := is.New(t)
			gotNames, got := archiveReadZip(t, archiveOf(t, r, ref, ports.ArchiveZip))
			wantNames, want := archiveReadZip(t, archiveGit(t, r.bare, "archive", "--format=zip", "--prefix=Tools/", ref))
			is.Equal(gotNames, wantNames)
			for _, name := range wantNames {
				if got[name] != want[name] {
					t.Errorf("%s: got %+v, want %+v", name, got[name], want[name])
				}
			}
			is.Equal(got["Tools/run.sh"].Attrs>>16, uint32(0o100755))
			is.Equal(got["Tools/link"].Attrs>>16, uint32(0o120777))
			is.Equal(got["Tools/link"].Data, "README.md")
		})
	}
}

func TestArchiveBundleClones(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := newArchiveRepo(t)
	for _, ref := range []string{"feature/x", "v1.0", strings.TrimSpace(string(archiveGit(t, r.bare, "rev-parse", "main")))} {
		file := filepath.Join(t.TempDir(), "repo.bundle")
		is.NoErr(os.WriteFile(file, archiveOf(t, r, ref, ports.ArchiveBundle), 0o644))
		archiveGit(t, r.bare, "bundle", "verify", "-q", file)
		heads := string(archiveGit(t, r.bare, "bundle", "list-heads", file))
		want := strings.TrimSpace(string(archiveGit(t, r.bare, "rev-parse", ref+"^{commit}")))
		is.True(strings.Contains(heads, want+" refs/heads/bundle"))
		is.True(strings.Contains(heads, want+" HEAD"))

		dst := filepath.Join(t.TempDir(), "clone")
		archiveGit(t, t.TempDir(), "clone", "-q", file, dst)
		is.Equal(strings.TrimSpace(string(archiveGit(t, dst, "rev-parse", "HEAD"))), want)
		is.Equal(string(archiveGit(t, dst, "ls-tree", "-r", "HEAD")), string(archiveGit(t, r.bare, "ls-tree", "-r", want)))
		archiveGit(t, dst, "fsck", "--no-progress")
	}
	// The repository itself is untouched: no bundle branch appeared.
	is.Equal(strings.TrimSpace(string(archiveGit(t, r.bare, "for-each-ref", "--format=%(refname)", "refs/heads/bundle"))), "")
}

func TestArchiveErrors(t *testing.T) {
	t.Parallel()
	r := newArchiveRepo(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, ref string
		format    ports.ArchiveFormat
	}{
		{"absent ref", "nothing", ports.ArchiveZip},
		{"empty ref", "", ports.ArchiveZip},
		{"unknown format", "main", ports.ArchiveFormat("rar")},
		{"NUL", "ma\x00in", ports.ArchiveTarGz},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.s.OpenArchive(ctx, r.p, tc.ref, tc.format, "Tools/")
			if !errors.Is(err, errs.ErrNotFound) {
				t.Fatalf("want not found, got %v", err)
			}
		})
	}
	t.Run("absent repository", func(t *testing.T) {
		_, err := r.s.OpenArchive(ctx, ports.RepoPath{Owner: "alice", Name: "nothing"}, "main", ports.ArchiveZip, "x/")
		if !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("want not found, got %v", err)
		}
	})
	t.Run("empty repository", func(t *testing.T) {
		p := ports.RepoPath{Owner: "alice", Name: "empty"}
		if err := r.s.Init(ctx, p, "main"); err != nil {
			t.Fatal(err)
		}
		_, err := r.s.OpenArchive(ctx, p, "main", ports.ArchiveTarGz, "empty/")
		if !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("want not found, got %v", err)
		}
	})
	t.Run("cancelled while streaming", func(t *testing.T) {
		for _, f := range []ports.ArchiveFormat{ports.ArchiveZip, ports.ArchiveTarGz, ports.ArchiveBundle} {
			a, err := r.s.OpenArchive(ctx, r.p, "main", f, "Tools/")
			if err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := a.Stream(cctx, io.Discard); !errors.Is(err, context.Canceled) {
				t.Errorf("%s: want context.Canceled, got %v", f, err)
			}
			if err := a.Stream(ctx, io.Discard); err == nil {
				t.Errorf("%s: a second Stream should fail", f)
			}
			a.Close()
		}
	})
	t.Run("revision", func(t *testing.T) {
		is := is.New(t)
		a, err := r.s.OpenArchive(ctx, r.p, "v1.0", ports.ArchiveZip, "Tools/")
		is.NoErr(err)
		defer a.Close()
		is.Equal(a.Revision().Kind, ports.RevisionTag)
		is.Equal(a.Revision().CommitID, strings.TrimSpace(string(archiveGit(t, r.bare, "rev-parse", "v1.0^{commit}"))))
	})
}
