package backup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Doctor checks a site's rows against its files.
type Doctor struct {
	Repos       ports.RepositoryFiles
	Inventory   ports.SiteInventory
	Hooks       ports.SiteHooks
	Git         ports.GitStorage
	Attachments ports.AttachmentBlobs
	UploadRefs  ports.UploadRefStore
	PkgBlobs    ports.PackageBlobs
	Packages    ports.PackageStore
	Avatars     ports.Avatars
	Artifacts   ports.ArtifactBlobs
	TaskLogs    ports.ActionLogFiles
	TempFiles   ports.SiteTempFiles
	// Drops tells the servers sharing the database to forget their copies
	// of the accounts --fix changed (nil: nothing to tell).
	Drops ports.CacheDropBus
	Now   func() time.Time
}

// DoctorOptions choose what the doctor does.
type DoctorOptions struct {
	// Fix repairs what can be repaired safely.
	Fix bool
	// SkipFsck leaves out git fsck (slow on large sites).
	SkipFsck bool
}

// Finding is one problem the doctor found.
type Finding struct {
	// Check names the check: hooks, repository-missing, repository-unknown,
	// fsck, blob-orphan, blob-missing (the blobs: attachments and release
	// assets, package blobs, avatars, Actions artifacts, Actions task logs),
	// temp-file.
	Check   string
	Subject string
	Detail  string
	// Fixed says that --fix repaired it.
	Fixed bool
}

func (f Finding) String() string {
	s := f.Check + ": " + f.Subject
	if f.Detail != "" {
		s += ": " + f.Detail
	}
	if f.Fixed {
		s += " (fixed)"
	}
	return s
}

// blobBatch is how many blobs are checked against the rows at a time.
const blobBatch = 500

// Check runs every check and returns the findings.
func (d *Doctor) Check(ctx context.Context, o DoctorOptions, progress Progress) ([]Finding, error) {
	var out []Finding
	for _, check := range []func(context.Context, DoctorOptions, Progress) ([]Finding, error){
		d.checkHooks, d.checkRepositories, d.checkAttachments, d.checkPackageBlobs, d.checkAvatars, d.checkArtifacts,
		d.checkTaskLogs, d.checkTempFiles,
	} {
		fs, err := check(ctx, o, progress)
		out = append(out, fs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func (d *Doctor) checkHooks(_ context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	bad, err := d.Hooks.Check()
	if err != nil || len(bad) == 0 {
		return nil, err
	}
	fixed := false
	if o.Fix {
		if err := d.Hooks.Install(); err != nil {
			return nil, err
		}
		again, err := d.Hooks.Check()
		if err != nil {
			return nil, err
		}
		fixed = len(again) == 0
	}
	var out []Finding
	for _, b := range bad {
		out = append(out, Finding{Check: "hooks", Subject: "push hook", Detail: b, Fixed: fixed})
	}
	return out, nil
}

func (d *Doctor) checkRepositories(ctx context.Context, o DoctorOptions, progress Progress) ([]Finding, error) {
	rows, err := d.Inventory.RepositoryDirs(ctx)
	if err != nil {
		return nil, err
	}
	dirs, err := d.Repos.Dirs(ctx)
	if err != nil {
		return nil, err
	}
	var out []Finding
	onDisk := map[string]bool{}
	for i, dir := range dirs {
		onDisk[dir] = true
		progress("repositories", i+1, len(dirs))
		base := dir
		if strings.HasSuffix(dir, ".wiki.git") {
			base = strings.TrimSuffix(dir, ".wiki.git") + ".git"
		}
		if _, ok := rows[base]; !ok {
			// Not removed: it may be adopted (the admin's unadopted
			// repositories), or was never Depot's.
			out = append(out, Finding{Check: "repository-unknown", Subject: dir, Detail: "a directory without a repository row"})
			continue
		}
		if o.SkipFsck {
			continue
		}
		report, err := d.Repos.Fsck(ctx, dir)
		if err != nil {
			return out, err
		}
		if report != "" {
			out = append(out, Finding{Check: "fsck", Subject: dir, Detail: firstLines(report, 5)})
		}
	}
	for dir, id := range rows {
		if onDisk[dir] {
			continue
		}
		f := Finding{Check: "repository-missing", Subject: dir, Detail: fmt.Sprintf("repository %d has no directory", id)}
		if o.Fix {
			// Recreated empty and recorded as empty: the row answers again
			// (a push can refill it) instead of failing every Git read.
			p, ok := repoPath(dir)
			if ok {
				if err := d.Git.Init(ctx, p, repository.DefaultBranch); err != nil {
					return out, err
				}
				if err := d.Inventory.MarkEmpty(ctx, id); err != nil {
					return out, err
				}
				f.Fixed, f.Detail = true, f.Detail+"; recreated empty"
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// repoPath reads "repos/<owner>/<name>.git".
func repoPath(dir string) (ports.RepoPath, bool) {
	parts := strings.Split(dir, "/")
	if len(parts) != 3 || parts[0] != "repos" || !strings.HasSuffix(parts[2], ".git") {
		return ports.RepoPath{}, false
	}
	return ports.RepoPath{Owner: parts[1], Name: strings.TrimSuffix(parts[2], ".git")}, true
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "; ")
}

func (d *Doctor) checkAttachments(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.Attachments.Stored(ctx, d.Now(), blobBatch, func(uuids []string) error {
		return orphans(ctx, o, uuids, d.UploadRefs.Referenced, d.Attachments.Delete, &out, func(u string) Finding {
			return Finding{Check: "blob-orphan", Subject: "attachment " + u, Detail: "no attachment or release asset row names it"}
		})
	})
	if err != nil {
		return out, err
	}
	uuids, err := d.Inventory.AttachmentUUIDs(ctx)
	if err != nil {
		return out, err
	}
	for _, u := range uuids {
		rc, err := d.Attachments.Open(ctx, u)
		if errors.Is(err, errs.ErrNotFound) {
			out = append(out, Finding{Check: "blob-missing", Subject: "attachment " + u, Detail: "its row names a file that is gone"})
			continue
		}
		if err != nil {
			return out, err
		}
		_ = rc.Close()
	}
	return out, nil
}

// Remaining counts the findings that are not fixed.
func Remaining(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if !f.Fixed {
			n++
		}
	}
	return n
}

// orphans adds a finding for each key of a batch of stored files that no row
// names (referenced answers which do) and, with --fix, removes its file.
func orphans[K comparable](ctx context.Context, o DoctorOptions, keys []K,
	referenced func(context.Context, []K) (map[K]bool, error), remove func(context.Context, K) error,
	out *[]Finding, finding func(K) Finding) error {
	kept, err := referenced(ctx, keys)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if kept[k] {
			continue
		}
		f := finding(k)
		if o.Fix {
			if err := remove(ctx, k); err != nil {
				return err
			}
			f.Fixed = true
		}
		*out = append(*out, f)
	}
	return nil
}
