package sitearchive

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/depothq/depot/ports"
)

// RepositoryFiles reads the bare repositories under <data>/repos
// (ports.RepositoryFiles).
type RepositoryFiles struct{ root string }

var _ ports.RepositoryFiles = (*RepositoryFiles)(nil)

// NewRepositoryFiles reads the repositories of the data directory root.
func NewRepositoryFiles(root string) *RepositoryFiles { return &RepositoryFiles{root: root} }

// ReposDir is the repositories' directory in the data directory.
const ReposDir = "repos"

// Dirs lists repos/<owner>/<name>.git directories (wikis included),
// leaving out the dot-directories (deletions' trash, moves' journal).
func (r *RepositoryFiles) Dirs(ctx context.Context) ([]string, error) {
	owners, err := os.ReadDir(filepath.Join(r.root, ReposDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range owners {
		if !o.IsDir() || strings.HasPrefix(o.Name(), ".") {
			continue
		}
		repos, err := os.ReadDir(filepath.Join(r.root, ReposDir, o.Name()))
		if err != nil {
			return nil, err
		}
		for _, e := range repos {
			if e.IsDir() && strings.HasSuffix(e.Name(), ".git") && !strings.HasPrefix(e.Name(), ".") {
				out = append(out, ReposDir+"/"+o.Name()+"/"+e.Name())
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// isRefFile reports whether rel (relative to a repository) is one of its
// references.
func isRefFile(rel string) bool {
	return rel == "HEAD" || rel == "packed-refs" || rel == "refs" || strings.HasPrefix(rel, "refs/")
}

// CaptureRefs reads dir's references into memory. Git replaces a ref file
// by renaming a lock file over it, so each file read is whole; reading
// them while no push runs (the dump holds the push gate) makes the set one
// instant's.
func (r *RepositoryFiles) CaptureRefs(ctx context.Context, dir string) ([]ports.CapturedFile, error) {
	base := filepath.Join(r.root, filepath.FromSlash(dir))
	var out []ports.CapturedFile
	read := func(f ports.SiteFile) error {
		data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(f.Name)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		f.Size = int64(len(data))
		out = append(out, ports.CapturedFile{SiteFile: f, Data: data})
		return nil
	}
	for _, name := range []string{"HEAD", "packed-refs"} {
		if err := read(ports.SiteFile{Name: dir + "/" + name, Mode: 0o644}); err != nil {
			return nil, err
		}
	}
	err := walk(ctx, r.root, filepath.Join(base, "refs"), func(rel string, isDir bool) bool {
		return strings.HasSuffix(rel, ".lock")
	}, read)
	return out, err
}

// Objects walks dir's files other than references, leaving out what an
// unfinished push or command left (quarantines, temporary and lock files).
func (r *RepositoryFiles) Objects(ctx context.Context, dir string, fn func(f ports.SiteFile) error) error {
	base := filepath.Join(r.root, filepath.FromSlash(dir))
	return walk(ctx, r.root, base, func(rel string, isDir bool) bool {
		last := rel[strings.LastIndex(rel, "/")+1:]
		return isRefFile(rel) || strings.HasPrefix(rel, "objects/incoming-") || strings.HasPrefix(last, "tmp_") ||
			strings.HasSuffix(last, ".lock") || strings.HasPrefix(last, ".") || rel == "logs"
	}, fn)
}

// Fsck runs git fsck on dir and returns what it reports.
func (r *RepositoryFiles) Fsck(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "fsck", "--no-progress", "--no-dangling")
	cmd.Dir = filepath.Join(r.root, filepath.FromSlash(dir))
	cmd.Env = append(os.Environ(), "GIT_DIR=.")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		text := strings.TrimSpace(out.String())
		if text == "" {
			text = exit.Error()
		}
		return text, nil
	}
	if err != nil {
		return "", err
	}
	return "", nil
}
