package libgit2_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// substTemplate uses every placeholder the archive expands, some git
// leaves alone, and an unterminated format.
const substTemplate = `id $Format:%H$ short $Format:%h$
tree $Format:%T$ $Format:%t$
parents $Format:%P$ / $Format:%p$
author $Format:%an <%ae> %al$
dates $Format:%ad|%aD|%ai|%aI|%at|%as$
committer $Format:%cn <%ce>$ $Format:%cd|%cD|%ci|%cI|%ct$
subject [$Format:%s$]
body [$Format:%b$]
raw [$Format:%B$]
refs [$Format:%d$] [$Format:%D$]
misc $Format:100%% done%n%x41%x$ $Format:%z %q %$ $Format:$
none $Format:no placeholders$ $Format:unterminated
`

// newSubstRepo builds a repository whose archive expands placeholders in
// two files (one marked by a nested .gitattributes), leaving a third alone;
// main ends with a merge carrying a multi-line message, pointed at by
// branches, a lightweight and an annotated tag and a remote-tracking ref.
func newSubstRepo(t *testing.T) *archiveRepo {
	t.Helper()
	s, root := newStorage(t)
	r := &archiveRepo{s: s, p: ports.RepoPath{Owner: "alice", Name: "Subst"}, work: t.TempDir()}
	if err := s.Init(context.Background(), r.p, "main"); err != nil {
		t.Fatal(err)
	}
	r.bare = repoDir(root, r.p)
	w := r.work
	archiveGit(t, w, "init", "-q", "-b", "main")
	archiveWrite(t, w, ".gitattributes", "version.txt export-subst\n*.keep -export-subst\n", 0o644)
	archiveWrite(t, w, "version.txt", substTemplate, 0o644)
	archiveWrite(t, w, "tools/.gitattributes", "*.sh export-subst\n", 0o644)
	archiveWrite(t, w, "tools/run.sh", "#!/bin/sh\necho '$Format:%h %s$'\n", 0o755)
	archiveWrite(t, w, "plain.txt", "left alone: $Format:%H$\n", 0o644)
	archiveWrite(t, w, "x.keep", "unset: $Format:%H$\n", 0o644)
	archiveGit(t, w, "add", "-A")
	archiveGit(t, w, "commit", "-q", "-m", "first")
	archiveGit(t, w, "checkout", "-q", "-b", "side")
	archiveWrite(t, w, "side.txt", "side\n", 0o644)
	archiveGit(t, w, "add", "side.txt")
	archiveGit(t, w, "commit", "-q", "-m", "side")
	archiveGit(t, w, "checkout", "-q", "main")
	archiveWrite(t, w, "main.txt", "main\n", 0o644)
	archiveGit(t, w, "add", "main.txt")
	archiveGit(t, w, "commit", "-q", "-m", "main")
	archiveGit(t, w, "merge", "-q", "--no-ff", "side", "-m", "\n  Merge side  \ninto main\n\n\nThe body,\n  indented.\n")
	archiveGit(t, w, "branch", "release")
	archiveGit(t, w, "tag", "light")
	archiveGit(t, w, "tag", "-a", "-m", "release", "v1.0")
	archiveGit(t, w, "push", "-q", r.bare, "main", "side", "release", "light", "v1.0", "main:refs/remotes/origin/main")
	return r
}

func TestArchiveExportSubstMatchesGitArchive(t *testing.T) {
	t.Parallel()
	r := newSubstRepo(t)
	for _, ref := range []string{"main", "side", "v1.0"} {
		t.Run(ref, func(t *testing.T) {
			is := is.New(t)
			gz, err := gzip.NewReader(bytes.NewReader(archiveOf(t, r, ref, ports.ArchiveTarGz)))
			is.NoErr(err)
			gotNames, got := archiveReadTar(t, gz)
			wantNames, want := archiveReadTar(t, bytes.NewReader(
				archiveGit(t, r.bare, "archive", "--format=tar", "--prefix=Subst/", ref)))
			is.Equal(gotNames, wantNames)
			for _, name := range wantNames {
				if got[name].Data != want[name].Data || got[name].Mode != want[name].Mode {
					t.Errorf("tar %s:\n got %q\nwant %q", name, got[name].Data, want[name].Data)
				}
			}
			zipNames, zipGot := archiveReadZip(t, archiveOf(t, r, ref, ports.ArchiveZip))
			zipWantNames, zipWant := archiveReadZip(t, archiveGit(t, r.bare, "archive", "--format=zip", "--prefix=Subst/", ref))
			is.Equal(zipNames, zipWantNames)
			for _, name := range zipWantNames {
				if zipGot[name] != zipWant[name] {
					t.Errorf("zip %s:\n got %+v\nwant %+v", name, zipGot[name], zipWant[name])
				}
			}
			// The files are expanded (the oracle could be wrong in the same way).
			id := strings.TrimSpace(string(archiveGit(t, r.bare, "rev-parse", ref+"^{commit}")))
			is.True(strings.Contains(got["Subst/version.txt"].Data, "id "+id+" short "+id[:7]))
			is.True(strings.Contains(got["Subst/tools/run.sh"].Data, id[:7]))
			is.Equal(got["Subst/plain.txt"].Data, "left alone: $Format:%H$\n")
			is.Equal(got["Subst/x.keep"].Data, "unset: $Format:%H$\n")
		})
	}
	t.Run("decorations", func(t *testing.T) {
		is := is.New(t)
		_, got := archiveReadZip(t, archiveOf(t, r, "main", ports.ArchiveZip))
		is.True(strings.Contains(got["Subst/version.txt"].Data,
			"refs [ (HEAD -> main, tag: v1.0, tag: light, origin/main, release)]"))
		is.True(strings.Contains(got["Subst/version.txt"].Data, "subject [  Merge side into main]"))
		is.True(strings.Contains(got["Subst/version.txt"].Data, "misc 100% done\nA%x %z %q % \n"))
	})
}
