package libgit2

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.GitPushInspector = (*Storage)(nil)

// quarantineName is the name git gives a push's incoming object directory.
var quarantineName = regexp.MustCompile(`^tmp_objdir-incoming-[A-Za-z0-9_]+$`)

// InspectPush says whether oldID→newID is a fast-forward and, when files
// is set, which paths differ between the two trees. The push's objects may
// still be in its quarantine (objects/<quarantine>), which is added to the
// object database for this one call: it is a directory of this repository
// only, its name checked, so nothing outside the repository is read.
func (s *Storage) InspectPush(ctx context.Context, p ports.RepoPath, quarantine, oldID, newID string, files bool) (ports.GitPushInspection, error) {
	var out ports.GitPushInspection
	if quarantine != "" && !quarantineName.MatchString(quarantine) {
		return out, errs.BadRequest("hook: malformed quarantine directory")
	}
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		if quarantine != "" {
			if err := addQuarantine(repo, filepath.Join(repo.Path(), "objects", quarantine)); err != nil {
				return err
			}
		}
		oldC, err := lookupCommit(repo, oldID)
		if err != nil {
			return err
		}
		defer oldC.Free()
		newC, err := lookupCommit(repo, newID)
		if err != nil {
			return err
		}
		defer newC.Free()
		if out.FastForward, err = isAncestor(repo, oldC.Id(), newC.Id()); err != nil {
			return err
		}
		if files {
			out.ChangedFiles, err = changedPaths(repo, oldC, newC)
		}
		return err
	})
	return out, err
}

// addQuarantine adds a push's incoming objects (loose and packed) to repo's
// object database.
func addQuarantine(repo *git.Repository, dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return nil // already migrated, or nothing came in
	}
	odb, err := repo.Odb()
	if err != nil {
		return fmt.Errorf("libgit2: object database: %w", err)
	}
	defer odb.Free()
	loose, err := git.NewOdbBackendLoose(dir, -1, false, 0, 0)
	if err != nil {
		return fmt.Errorf("libgit2: quarantine objects: %w", err)
	}
	if err := odb.AddAlternate(loose, 10); err != nil {
		loose.Free()
		return fmt.Errorf("libgit2: quarantine objects: %w", err)
	}
	idx, _ := filepath.Glob(filepath.Join(dir, "pack", "*.idx"))
	for _, i := range idx {
		pack, err := git.NewOdbBackendOnePack(i)
		if err != nil {
			return fmt.Errorf("libgit2: quarantine pack: %w", err)
		}
		if err := odb.AddAlternate(pack, 11); err != nil {
			pack.Free()
			return fmt.Errorf("libgit2: quarantine pack: %w", err)
		}
	}
	return nil
}

// changedPaths lists the paths that differ between two commits' trees.
func changedPaths(repo *git.Repository, a, b *git.Commit) ([]string, error) {
	ta, err := a.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree: %w", err)
	}
	defer ta.Free()
	tb, err := b.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree: %w", err)
	}
	defer tb.Free()
	diff, err := repo.DiffTreeToTree(ta, tb, nil)
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff: %w", err)
	}
	defer func() { _ = diff.Free() }()
	n, err := diff.NumDeltas()
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff: %w", err)
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return nil, fmt.Errorf("libgit2: diff: %w", err)
		}
		path := d.NewFile.Path
		if d.Status == git.DeltaDeleted {
			path = d.OldFile.Path
		}
		out = append(out, path)
	}
	return out, nil
}

// PushedCommits lists the commits a push brings to a branch, with their
// signatures: oldID..newID, or for a new branch (oldID "") the commits of
// newID that no existing ref reaches. The quarantine is added as in
// InspectPush.
func (s *Storage) PushedCommits(ctx context.Context, p ports.RepoPath, quarantine, oldID, newID string, limit int) ([]ports.CommitDetail, error) {
	if quarantine != "" && !quarantineName.MatchString(quarantine) {
		return nil, errs.BadRequest("hook: malformed quarantine directory")
	}
	var out []ports.CommitDetail
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		if quarantine != "" {
			if err := addQuarantine(repo, filepath.Join(repo.Path(), "objects", quarantine)); err != nil {
				return err
			}
		}
		newC, err := lookupCommit(repo, newID)
		if err != nil {
			return err
		}
		newOid := *newC.Id()
		newC.Free()
		walk, err := repo.Walk()
		if err != nil {
			return fmt.Errorf("libgit2: walk: %w", err)
		}
		defer walk.Free()
		walk.Sorting(git.SortTopological)
		if err := walk.Push(&newOid); err != nil {
			return fmt.Errorf("libgit2: walk: %w", err)
		}
		if oldID != "" {
			oldC, err := lookupCommit(repo, oldID)
			if err != nil {
				return err
			}
			oldOid := *oldC.Id()
			oldC.Free()
			if err := walk.Hide(&oldOid); err != nil {
				return fmt.Errorf("libgit2: walk: %w", err)
			}
		} else if err := walk.HideGlob("refs/*"); err != nil && !git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return fmt.Errorf("libgit2: walk: %w", err)
		}
		var id git.Oid
		for len(out) < limit {
			if err := walk.Next(&id); err != nil {
				if git.IsErrorCode(err, git.ErrorCodeIterOver) {
					return nil
				}
				return fmt.Errorf("libgit2: walk: %w", err)
			}
			c, err := repo.LookupCommit(&id)
			if err != nil {
				return fmt.Errorf("libgit2: commit %s: %w", id.String(), err)
			}
			if out, err = appendDetail(repo, out, c, ports.CommitExtras{Signature: true}); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// SigningKey is the public key of Depot's commit signing key, nil when it
// signs no commits.
func (s *Storage) SigningKey() []byte {
	if s.signer == nil {
		return nil
	}
	return s.signer.PublicKey()
}
