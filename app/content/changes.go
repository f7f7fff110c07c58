package content

import (
	"context"
	"strings"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Changes are the use cases that write a repository's files as commits:
// the contents write routes and the diff patch route.
type Changes struct{ *Service }

// Changes returns the file change use cases.
func (s *Service) Changes() Changes { return Changes{s} }

// ChangeOptions are what every contents write takes besides its changes, as
// Gitea's FileOptions: the branch read (default: the default branch), the
// branch written (default: the same), the message (default: Gitea's "Add
// x" / "Update y" / "Delete z"), author and committer (default: the
// caller), their dates (zero: now) and a Signed-off-by trailer.
type ChangeOptions struct {
	Branch, NewBranch         string
	Message                   string
	Author, Committer         repository.Identity
	AuthorDate, CommitterDate time.Time
	Signoff                   bool
}

// ChangeResult is what a write committed, ready to render.
type ChangeResult struct {
	// Revision is the branch written, at the new commit.
	Revision ports.GitRevision
	Commit   ports.GitCommitInfo
	// Verification is what Gitea says of the new commit's signature.
	Verification *CommitVerification
	// Entries are the files now at the changes' paths, in order; nil for a
	// deletion (and empty for a diff patch).
	Entries []*ports.GitEntry
}

// Files writes files as one commit on a branch (POST and PUT and
// DELETE R/contents/{path}, POST R/contents).
func (s Changes) Files(ctx context.Context, a *repos.Access, opts ChangeOptions, files []repository.FileChange) (*ChangeResult, error) {
	if a.Repo.Archived {
		return nil, errs.Locked("repository is archived")
	}
	// Counted first: every later step (validation, blobs, the answer) costs
	// something per file.
	if err := repository.CheckFileCount("Files", len(files), s.settings.MaxChangeFiles); err != nil {
		return nil, err
	}
	files, err := repository.CheckFileChanges(files)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := repository.CheckFileSize(f.Path, int64(len(f.Content)), s.settings.MaxFileBytes); err != nil {
			return nil, err
		}
	}
	target, err := s.target(a, opts, repository.DefaultChangeMessage(files))
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, 2*len(files))
	for _, f := range files {
		paths = append(paths, f.Path)
		if f.FromPath != "" {
			paths = append(paths, f.FromPath)
		}
	}
	if err := s.checkBranchWritable(ctx, a, target.Target(), paths); err != nil {
		return nil, err
	}
	res, err := s.git.ChangeFiles(ctx, pathOf(a.Repo), ports.GitChangeSet{GitChangeTarget: target, Changes: files})
	if err != nil {
		return nil, err
	}
	return s.recordChange(ctx, a, res)
}

// ApplyPatch applies a unified diff as one commit (POST R/diffpatch).
func (s Changes) ApplyPatch(ctx context.Context, a *repos.Access, opts ChangeOptions, patch []byte) (*ChangeResult, error) {
	if a.Repo.Archived {
		return nil, errs.Locked("repository is archived")
	}
	target, err := s.target(a, opts, repository.DefaultPatchMessage)
	if err != nil {
		return nil, err
	}
	if err := s.checkBranchWritable(ctx, a, target.Target(), nil); err != nil {
		return nil, err
	}
	res, err := s.git.ApplyPatch(ctx, pathOf(a.Repo), ports.GitPatchSet{GitChangeTarget: target, Patch: patch,
		MaxFiles: s.settings.MaxChangeFiles})
	if err != nil {
		return nil, err
	}
	return s.recordChange(ctx, a, res)
}

// target settles the branches, identities, dates and message of a write.
func (s Changes) target(a *repos.Access, opts ChangeOptions, fallback string) (ports.GitChangeTarget, error) {
	branch := strings.TrimSpace(opts.Branch)
	if branch == "" {
		branch = a.Repo.DefaultBranch
	} else if err := repository.ValidateBranchName("BranchName", branch); err != nil {
		return ports.GitChangeTarget{}, err
	}
	newBranch := strings.TrimSpace(opts.NewBranch)
	if newBranch == branch {
		newBranch = ""
	}
	if newBranch != "" {
		if err := repository.ValidateBranchName("NewBranchName", newBranch); err != nil {
			return ports.GitChangeTarget{}, err
		}
	}
	author, committer, err := repository.CommitIdentities(opts.Author, opts.Committer, s.gitIdentity(a.Caller.User))
	if err != nil {
		return ports.GitChangeTarget{}, err
	}
	now := s.clock.Now()
	when := func(t time.Time) time.Time {
		if t.IsZero() {
			return now
		}
		return t
	}
	return ports.GitChangeTarget{
		Branch: branch, NewBranch: newBranch,
		Message:   repository.CommitMessage(opts.Message, fallback, opts.Signoff, committer),
		Author:    ports.GitSignature{Name: author.Name, Email: author.Email, When: when(opts.AuthorDate)},
		Committer: ports.GitSignature{Name: committer.Name, Email: committer.Email, When: when(opts.CommitterDate)},
	}, nil
}

// recordChange records what the write changed in the database: a repository
// that had no commit is empty no longer (and its default branch is the one
// written, as in Gitea), and its size is refreshed.
func (s Changes) recordChange(ctx context.Context, a *repos.Access, res ports.GitChangeResult) (*ChangeResult, error) {
	p := pathOf(a.Repo)
	if res.WasEmpty && res.Branch != a.Repo.DefaultBranch {
		if err := s.storage.SetHead(ctx, p, res.Branch); err != nil {
			return nil, err
		}
	}
	if a.Repo.Empty || res.WasEmpty {
		err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.Repos.SetEmpty(ctx, a.Repo.ID, false); err != nil {
				return err
			}
			if !res.WasEmpty || res.Branch == a.Repo.DefaultBranch {
				return nil
			}
			r, err := tx.Repos.GetByID(ctx, a.Repo.ID)
			if err != nil {
				return err
			}
			r.DefaultBranch = res.Branch
			return tx.Repos.Update(ctx, r)
		})
		if err != nil {
			return nil, err
		}
	}
	if size, err := s.storage.Size(ctx, p); err != nil {
		s.log.Warn("repository size not refreshed", "repo", a.Repo.ID, "err", err)
	} else if err := s.stores.Repos.SetSize(ctx, a.Repo.ID, size); err != nil {
		s.log.Warn("repository size not recorded", "repo", a.Repo.ID, "err", err)
	}
	// The push webhook event for this commit is queued here once webhook
	// delivery exists (another issue).
	out := &ChangeResult{
		Revision: ports.GitRevision{Kind: ports.RevisionBranch, Name: res.Branch, CommitID: res.Commit.ID},
		Commit:   res.Commit,
		Entries:  res.Entries,
	}
	// The commit is written: a failure to read its signature back only
	// leaves it shown as unsigned.
	if views, err := Commits(s).verified(ctx, a, []ports.GitCommitInfo{res.Commit}); err != nil {
		s.log.Warn("new commit's signature not read", "repo", a.Repo.ID, "commit", res.Commit.ID, "err", err)
	} else {
		out.Verification = views[0].Verification
	}
	return out, nil
}
