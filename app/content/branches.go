package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Branches are the use cases of a repository's branches.
type Branches struct{ *Service }

// Branches returns the branch use cases.
func (s *Service) Branches() Branches { return Branches{s} }

// Gitea's messages for the branch routes.
const (
	refMsgRepoEmpty       = "Git Repository is empty."
	refMsgRepoMirror      = "Git Repository is a mirror."
	refMsgOldBranchAbsent = "The old branch does not exist"
	refMsgBranchExists    = "The branch already exists."
	refMsgBranchNameClash = "The branch with the same name already exists."
	refMsgBranchTagExists = "The branch with the same tag already exists."
	refMsgRenameTarget    = "Cannot rename a branch using the same name or rename to a branch that already exists."
	refMsgRenameAbsent    = "Branch doesn't exist."
	refMsgRenameNotAdmin  = "User must be a repo or site admin to rename default or protected branches."
	refMsgRenameGlob      = "Branch is protected by glob-based protection rules."
	refMsgDeleteDefault   = "can not delete default branch"
)

// BranchView is a branch with the accounts its head commit's author and
// committer addresses belong to (nil when none), for Gitea's usernames.
type BranchView struct {
	ports.GitBranch
	Author, Committer *user.User
	// Verification is what Gitea says of the head commit's signature.
	Verification *CommitVerification
}

// CreateBranchInput is Gitea's CreateBranchRepoOption.
type CreateBranchInput struct {
	Name string
	// OldBranch is the deprecated source branch name; OldRef (a branch, tag
	// or commit) wins when both are given; neither means the default branch.
	OldBranch, OldRef string
}

// List returns one page of branches by name and their count.
func (s Branches) List(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]BranchView, int64, error) {
	list, total, err := s.git.ListBranches(ctx, pathOf(a.Repo), opts)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.branchViews(ctx, a, list)
	return views, total, err
}

// Get returns one branch.
func (s Branches) Get(ctx context.Context, a *repos.Access, name string) (BranchView, error) {
	b, err := s.git.Branch(ctx, pathOf(a.Repo), name)
	if err != nil {
		return BranchView{}, err
	}
	views, err := s.branchViews(ctx, a, []ports.GitBranch{b})
	if err != nil {
		return BranchView{}, err
	}
	return views[0], nil
}

// branchViews finds the accounts behind the head commits' addresses, in
// one query, and what Gitea says of their signatures.
func (s Branches) branchViews(ctx context.Context, a *repos.Access, list []ports.GitBranch) ([]BranchView, error) {
	heads := make([]ports.GitCommitInfo, len(list))
	for i, b := range list {
		heads[i] = b.Commit
	}
	views, err := Commits(s).verified(ctx, a, heads)
	if err != nil {
		return nil, err
	}
	out := make([]BranchView, len(list))
	for i, b := range list {
		out[i] = BranchView{GitBranch: b, Author: views[i].AuthorUser, Committer: views[i].CommitterUser,
			Verification: views[i].Verification}
	}
	return out, nil
}

// refWritable refuses writes to Git references of an empty repository or a
// mirror, as Gitea's branch routes do.
func refWritable(a *repos.Access) error {
	if a.Repo.Empty {
		return errs.NotFound(refMsgRepoEmpty)
	}
	if a.Repo.IsMirror {
		return errs.Forbidden(refMsgRepoMirror)
	}
	return nil
}

// Create creates a branch from a branch, tag or commit (the default
// branch when none is named).
func (s Branches) Create(ctx context.Context, a *repos.Access, in CreateBranchInput) (BranchView, error) {
	if err := refNameValid("BranchName", in.Name); err != nil {
		return BranchView{}, err
	}
	if err := refWritable(a); err != nil {
		return BranchView{}, err
	}
	p := pathOf(a.Repo)
	var (
		rev ports.GitRevision
		err error
	)
	switch {
	case in.OldRef != "":
		rev, err = s.git.Resolve(ctx, p, in.OldRef)
		if errors.Is(err, errs.ErrNotFound) {
			return BranchView{}, errs.NotFound("The old ref does not exist")
		}
	case in.OldBranch != "":
		var b ports.GitBranch
		b, err = s.git.Branch(ctx, p, in.OldBranch)
		rev.CommitID = b.Commit.ID
		if errors.Is(err, errs.ErrNotFound) {
			return BranchView{}, errs.NotFound(refMsgOldBranchAbsent)
		}
	default:
		var b ports.GitBranch
		b, err = s.git.Branch(ctx, p, a.Repo.DefaultBranch)
		rev.CommitID = b.Commit.ID
		if errors.Is(err, errs.ErrNotFound) {
			return BranchView{}, errs.NotFound(refMsgOldBranchAbsent)
		}
	}
	if err != nil {
		return BranchView{}, err
	}
	if err := s.checkBranchRefUpdate(ctx, a, in.Name, protection.RefUpdate{Create: true}); err != nil {
		return BranchView{}, err
	}
	b, err := s.git.CreateBranch(ctx, p, in.Name, rev.CommitID)
	if err != nil {
		return BranchView{}, refConflictMessage(err, refMsgBranchExists)
	}
	// A create event for the new branch is sent here once webhooks exist.
	views, err := s.branchViews(ctx, a, []ports.GitBranch{b})
	if err != nil {
		return BranchView{}, err
	}
	return views[0], nil
}

// refConflictMessage gives a reference conflict Gitea's message for it;
// other errors pass through.
func refConflictMessage(err error, exists string) error {
	var c *ports.RefConflictError
	if !errors.As(err, &c) {
		return err
	}
	switch c.Kind {
	case ports.RefNameClash:
		return errs.Conflict(refMsgBranchNameClash)
	case ports.RefTagExists:
		return errs.Conflict(refMsgBranchTagExists)
	}
	return errs.Conflict(exists)
}

// Rename renames a branch. Renaming the default branch needs a
// repository administrator and makes the new name the default branch, in
// the database and in HEAD.
func (s Branches) Rename(ctx context.Context, a *repos.Access, from, to string) error {
	if err := refNameValid("Name", to); err != nil {
		return err
	}
	if err := refWritable(a); err != nil {
		return err
	}
	p := pathOf(a.Repo)
	if from == to {
		return refUnprocessable(refMsgRenameTarget)
	}
	isDefault := from == a.Repo.DefaultBranch
	guard, err := s.repos.BranchProtections().Match(ctx, a.Repo, from)
	if err != nil {
		return err
	}
	if (isDefault || guard != nil) && !a.Perm.IsAdmin() {
		return errs.Forbidden(refMsgRenameNotAdmin)
	}
	// A rule named after the branch follows it (below); a glob cannot.
	if guard != nil && protection.IsGlob(guard.Rule().Name) {
		return errs.Forbidden(refMsgRenameGlob)
	}
	if err := s.git.RenameBranch(ctx, p, from, to); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errs.NotFound(refMsgRenameAbsent)
		}
		var c *ports.RefConflictError
		if errors.As(err, &c) {
			if c.Kind == ports.RefNameClash {
				return errs.Conflict(refMsgBranchNameClash)
			}
			return refUnprocessable(refMsgRenameTarget)
		}
		return err
	}
	if isDefault || guard != nil {
		err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			if guard != nil {
				if err := s.repos.BranchProtections().FollowRename(ctx, tx, guard.Rule(), to); err != nil {
					return err
				}
			}
			if !isDefault {
				return nil
			}
			r, err := tx.Repos.GetByID(ctx, a.Repo.ID)
			if err != nil {
				return err
			}
			r.DefaultBranch = to
			return tx.Repos.Update(ctx, r)
		})
		if guard != nil {
			s.repos.BranchProtections().RulesChanged(a.Repo.ID)
		}
		if err != nil {
			// Put the Git side back so that database and HEAD agree again.
			if undo := s.git.RenameBranch(ctx, p, to, from); undo != nil {
				s.log.Error("undo branch rename after a failed database update", "repo", a.Repo.ID,
					"from", to, "to", from, "err", undo)
			}
			return err
		}
		if isDefault {
			a.Repo.DefaultBranch = to
		}
	}
	// Delete and create events for the two names are sent here once webhooks exist.
	return nil
}

// Delete deletes a branch other than the default one.
func (s Branches) Delete(ctx context.Context, a *repos.Access, name string) error {
	if err := refWritable(a); err != nil {
		return err
	}
	if name == a.Repo.DefaultBranch {
		return errs.Forbidden(refMsgDeleteDefault)
	}
	if err := s.checkBranchRefUpdate(ctx, a, name, protection.RefUpdate{Delete: true}); err != nil {
		return err
	}
	if _, err := s.git.DeleteBranch(ctx, pathOf(a.Repo), name); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errs.NotFound("branch does not exist [name: " + name + "]")
		}
		return err
	}
	// A delete event for the branch (with the commit it pointed at) is sent here once webhooks exist.
	return nil
}

// UpdateRefInput is the SDK's UpdateRepoBranchRefOption.
type UpdateRefInput struct {
	// NewCommitID is the commit (or any revision naming one) the branch moves to.
	NewCommitID string
	// OldCommitID, when set, must be where the branch points now.
	OldCommitID string
	// Force allows a move that is not a fast-forward.
	Force bool
}

// Messages of PUT R/branches/{branch}.
const (
	refMsgNewCommitRequired = "new_commit_id is required"
	refMsgNewCommitAbsent   = "new commit does not exist"
	refMsgOldCommitMismatch = "branch commit does not match old_commit_id"
	refMsgNotFastForward    = "branch update is not a fast-forward; use force to rewrite it"
	refMsgMovedMeanwhile    = "branch was updated by someone else; try again"
)

// UpdateRef moves a branch to a commit (PUT R/branches/{branch}): a
// fast-forward unless Force, from OldCommitID when given, and judged by the
// branch's protection as the same push would be.
func (s Branches) UpdateRef(ctx context.Context, a *repos.Access, name string, in UpdateRefInput) error {
	if strings.TrimSpace(in.NewCommitID) == "" {
		return errs.Invalid(refMsgNewCommitRequired, "NewCommitID")
	}
	if err := refWritable(a); err != nil {
		return err
	}
	p := pathOf(a.Repo)
	cur, err := s.git.Branch(ctx, p, name)
	if errors.Is(err, errs.ErrNotFound) {
		return errs.NotFound(refMsgRenameAbsent)
	}
	if err != nil {
		return err
	}
	rev, err := s.git.Resolve(ctx, p, strings.TrimSpace(in.NewCommitID))
	if errors.Is(err, errs.ErrNotFound) || (err == nil && rev.CommitID == "") {
		return errs.NotFound(refMsgNewCommitAbsent)
	}
	if err != nil {
		return err
	}
	oldID := cur.Commit.ID
	if in.OldCommitID != "" && !strings.EqualFold(strings.TrimSpace(in.OldCommitID), oldID) {
		return errs.Conflict(refMsgOldCommitMismatch)
	}
	if rev.CommitID == oldID {
		return nil
	}
	ff, err := s.refs.IsAncestor(ctx, p, oldID, rev.CommitID)
	if err != nil {
		return err
	}
	if !ff && !in.Force {
		return errs.Conflict(refMsgNotFastForward)
	}
	if err := s.checkBranchRefUpdate(ctx, a, name, protection.RefUpdate{ForcePush: !ff}); err != nil {
		return err
	}
	if err := s.refs.UpdateRef(ctx, p, "refs/heads/"+name, rev.CommitID, oldID); err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return errs.Conflict(refMsgMovedMeanwhile)
		}
		return err
	}
	return nil
}
