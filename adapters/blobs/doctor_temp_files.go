package blobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TempFiles finds, for the doctor, the temporary files a cut-off write
// left under a data directory: each writer writes aside and renames into
// place, so a crash (or a killed process) between the two leaves the file
// written aside behind, under a name only that writer gives.
type TempFiles struct{ root string }

var _ ports.SiteTempFiles = (*TempFiles)(nil)

// NewTempFiles looks for temporary files under the data directory root.
func NewTempFiles(root string) *TempFiles { return &TempFiles{root: root} }

// tempRule places one writer's temporary files: in the folders dir names
// (relative to the data directory, a name per level; "*" stands for any
// one folder, a last "**" for the folder and all below it), the files
// match accepts, given their folder's own name and theirs.
type tempRule struct {
	dir   string
	match func(folder, name string) bool
}

// tempRules are the temporary files of every writer under the data
// directory (os.CreateTemp's patterns and the fixed "<file>.tmp" names).
var tempRules = []tempRule{
	// A blob being written (Put, placeFile): attachments and release
	// assets, package blobs, Actions artifacts and task logs.
	{"attachments/**", named(partialPrefix, partialSuffix)},
	{"packages/**", named(partialPrefix, partialSuffix)},
	{"actions_artifacts/**", named(partialPrefix, partialSuffix)},
	{"actions_log/**", named(partialPrefix, partialSuffix)},
	// An avatar being written (Avatars.write).
	{"avatars", named(".avatar-", ".tmp")},
	// The node id (adapters/node) and the site key (adapters/security).
	{".", func(_, name string) bool { return name == "node-id.tmp" || named(".site-key-", "")("", name) }},
	// The OAuth2 signing key, the commit signing key (adapters/security)
	// and the SSH host key (adapters/sshd).
	{"jwt", named(".oauth2-key-", "")},
	{"signing", named(".signing-key-", "")},
	{"ssh", named(".host_ed25519_key-", "")},
	// The push hook scripts (adapters/githttp): ".<hook>-<random>".
	{"hooks", func(_, name string) bool {
		return slices.ContainsFunc([]string{"pre-receive", "update", "post-receive"}, func(hook string) bool {
			return named("."+hook+"-", "")("", name)
		})
	}},
	// The journal of repository moves (adapters/libgit2).
	{"repos/.moves", named("", ".json.tmp")},
	// A repository's commit counts rewritten and its path indexes
	// (adapters/libgit2), and its hook scripts (adapters/githooks:
	// hooks/<hook>.d/.<hook>-<random>).
	{"repos/*/*", func(_, name string) bool { return name == "depot-commit-counts.tmp" }},
	{"repos/*/*/depot-path-index/*", named(".tmp-", "")},
	{"repos/*/*/hooks/*", func(folder, name string) bool {
		hook, ok := strings.CutSuffix(folder, ".d")
		return ok && hook != "" && named("."+hook+"-", "")("", name)
	}},
}

// tempFolders are the temporary folders under the data directory, left
// whole: a writer makes one, writes in it and removes it with what it
// holds, and holds a lock on it all the while (a flock on the folder
// itself), so only a folder whose lock is free may be a leftover.
var tempFolders = []tempRule{
	// A dump's copy of the SQLite database (adapters/sqlstore,
	// snapshotSQLite: ".dump-<random>/depot.db" beside the database),
	// held for as long as the dump runs, hours on a large site.
	{".", named(".dump-", "")},
}

// named matches the names made of prefix, something, and suffix.
func named(prefix, suffix string) func(folder, name string) bool {
	return func(_, name string) bool {
		return len(name) > len(prefix)+len(suffix) && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix)
	}
}

// Stale calls fn with the temporary files last written before t that no
// live writer holds (the uploads of attachments and package blobs are held
// while written), at most n at a time. Only the folders the rules name are
// read, and symbolic links are neither followed nor listed.
func (s *TempFiles) Stale(ctx context.Context, t time.Time, n int, fn func(files []ports.TempFile) error) error {
	return inBatches(n, fn, func(add func(ports.TempFile) error) error {
		found := func(p, name string) error {
			rel, err := filepath.Rel(s.root, p)
			if err != nil {
				return fmt.Errorf("blobs: temporary file %s: %w", p, err)
			}
			if !s.matches(tempRules, filepath.ToSlash(rel)) || held(p) {
				return nil
			}
			info, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("blobs: temporary file: %w", err)
			}
			return add(ports.TempFile{Name: filepath.ToSlash(rel), Modified: info.ModTime()})
		}
		for _, r := range tempRules {
			dirs, deep, err := s.folders(ctx, r.dir)
			if err != nil {
				return err
			}
			for _, dir := range dirs {
				if deep {
					err = walkFiles(ctx, dir, t, found)
				} else {
					err = filesIn(ctx, dir, t, found)
				}
				if err != nil {
					return err
				}
			}
		}
		for _, r := range tempFolders {
			dirs, _, err := s.folders(ctx, r.dir)
			if err != nil {
				return err
			}
			for _, dir := range dirs {
				if err := s.staleFolders(ctx, dir, t, add); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// staleFolders adds the temporary folders in dir (not below it) that
// nothing under them was written in since t and whose lock is free. A
// symbolic link is no folder here.
func (s *TempFiles) staleFolders(ctx context.Context, dir string, t time.Time, add func(ports.TempFile) error) error {
	return entriesIn(ctx, dir, func(e fs.DirEntry) error {
		if !e.IsDir() {
			return nil
		}
		p := filepath.Join(dir, e.Name())
		rel, err := filepath.Rel(s.root, p)
		if err != nil {
			return fmt.Errorf("blobs: temporary folder %s: %w", p, err)
		}
		if !s.matches(tempFolders, filepath.ToSlash(rel)) {
			return nil
		}
		last, err := lastWritten(p)
		if err != nil || last.IsZero() || !last.Before(t) {
			return err
		}
		if free, _ := whileFree(p, func() error { return nil }); !free {
			return nil
		}
		return add(ports.TempFile{Name: filepath.ToSlash(rel), Modified: last, Folder: true})
	})
}

// lastWritten is the latest modification time of the folder at p and of
// everything under it (symbolic links not followed); zero when it is gone.
func lastWritten(p string) (time.Time, error) {
	var last time.Time
	err := filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
		if err == nil {
			var info fs.FileInfo
			if info, err = d.Info(); err == nil && info.ModTime().After(last) {
				last = info.ModTime()
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("blobs: temporary folder: %w", err)
	}
	return last, nil
}

// folders lists the folders under the root that pattern names (deep when
// it ends in "**"), skipping what is no folder (a symbolic link among).
func (s *TempFiles) folders(ctx context.Context, pattern string) (dirs []string, deep bool, err error) {
	parts := strings.Split(pattern, "/")
	if deep = parts[len(parts)-1] == "**"; deep {
		parts = parts[:len(parts)-1]
	}
	dirs = []string{s.root}
	for _, part := range parts {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		var next []string
		for _, dir := range dirs {
			if part == "." {
				next = append(next, dir)
				continue
			}
			if part != "*" {
				p := filepath.Join(dir, part)
				if info, err := os.Lstat(p); err == nil && info.IsDir() {
					next = append(next, p)
				}
				continue
			}
			entries, err := os.ReadDir(dir)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, false, fmt.Errorf("blobs: read %s: %w", dir, err)
			}
			for _, e := range entries {
				if e.IsDir() {
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
		}
		dirs = next
	}
	return dirs, deep, nil
}

// filesIn calls fn with the path and name of every regular file in dir
// (not below it) last modified before t. Files that vanish are skipped.
func filesIn(ctx context.Context, dir string, t time.Time, fn func(p, name string) error) error {
	return entriesIn(ctx, dir, func(e fs.DirEntry) error {
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("blobs: read %s: %w", dir, err)
		}
		if !info.ModTime().Before(t) {
			return nil
		}
		return fn(filepath.Join(dir, e.Name()), e.Name())
	})
}

// entriesIn calls fn with each entry of dir (none when dir is gone), until
// fn fails or ctx ends.
func entriesIn(ctx context.Context, dir string, fn func(e fs.DirEntry) error) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("blobs: read %s: %w", dir, err)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// matches reports whether name (relative to the data directory,
// slash-separated) is a temporary file (or folder) one of rules places.
func (s *TempFiles) matches(rules []tempRule, name string) bool {
	if !filepath.IsLocal(name) || path.Clean(name) != name {
		return false
	}
	dir, file := path.Split(name)
	dirParts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	if dir == "" {
		dirParts = []string{"."}
	}
	for _, r := range rules {
		if folderMatches(strings.Split(r.dir, "/"), dirParts) && r.match(dirParts[len(dirParts)-1], file) {
			return true
		}
	}
	return false
}

// folderMatches reports whether the folder of parts is one pattern names.
func folderMatches(pattern, parts []string) bool {
	if len(pattern) > 0 && pattern[len(pattern)-1] == "**" {
		head := pattern[:len(pattern)-1]
		return len(parts) >= len(head) && folderMatches(head, parts[:len(head)])
	}
	if len(pattern) != len(parts) {
		return false
	}
	for i, p := range pattern {
		if p != "*" && p != parts[i] || p == "*" && (parts[i] == "." || parts[i] == "..") {
			return false
		}
	}
	return true
}

// Remove deletes f if it is still the file Stale listed: a temporary file
// of a rule, a regular file (reached through no symbolic link: the data
// directory is opened as an os.Root) last written at f.Modified, not held;
// or a temporary folder, still a folder (not a link) in which nothing was
// written since, removed with all it holds while Remove holds its lock.
func (s *TempFiles) Remove(ctx context.Context, f ports.TempFile) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rules := tempRules
	if f.Folder {
		rules = tempFolders
	}
	if !s.matches(rules, f.Name) {
		return errs.Invalid("not a temporary file of the data directory", "name")
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return fmt.Errorf("blobs: open data directory: %w", err)
	}
	defer root.Close()
	name := filepath.FromSlash(f.Name)
	info, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("blobs: temporary file: %w", err)
	}
	p := filepath.Join(s.root, name)
	if f.Folder {
		if !info.IsDir() {
			return nil
		}
		last, err := lastWritten(p)
		if err != nil || !last.Equal(f.Modified) {
			return err
		}
		// RemoveAll through the root removes a link found in the folder,
		// never what it points to.
		if _, err := whileFree(p, func() error { return root.RemoveAll(name) }); err != nil {
			return fmt.Errorf("blobs: remove temporary folder: %w", err)
		}
		return nil
	}
	if !info.Mode().IsRegular() || !info.ModTime().Equal(f.Modified) || held(p) {
		return nil
	}
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobs: remove temporary file: %w", err)
	}
	return nil
}
