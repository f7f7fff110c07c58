package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Gitea's messages for the branch and tag routes.
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
	refMsgDeleteDefault   = "can not delete default branch"
)

// BranchView is a branch with the accounts its head commit's author and
// committer addresses belong to (nil when none), for Gitea's usernames.
type BranchView struct {
	ports.GitBranch
	Author, Committer *user.User
}

// CreateBranchInput is Gitea's CreateBranchRepoOption.
type CreateBranchInput struct {
	Name string
	// OldBranch is the deprecated source branch name; OldRef (a branch, tag
	// or commit) wins when both are given; neither means the default branch.
	OldBranch, OldRef string
}

// CreateTagInput is Gitea's CreateTagOption.
type CreateTagInput struct {
	Name string
	// Message makes the tag annotated, signed by the caller, when non-empty.
	Message string
	// Target is a branch, tag or commit; empty means the default branch.
	Target string
}

// NoteView is a commit's note with the accounts of the notes commit's
// author and committer.
type NoteView struct {
	ports.GitNote
	Author, Committer *user.User
}

// refNameMaxLen is the longest branch or tag name Gitea's binding accepts.
const refNameMaxLen = 100

// refUnprocessable is a 422 whose message names no field, as Gitea words
// its refusals of a rename and of a note's ref.
func refUnprocessable(msg string) error { return &errs.Error{Kind: errs.ErrInvalid, Msg: msg} }

// refNameValid checks a new branch or tag name as Gitea's binding does
// (Required, GitRefName, MaxSize(100)).
func refNameValid(field, name string) error {
	if err := repository.ValidateBranchName(field, name); err != nil {
		return err
	}
	if len([]rune(name)) > refNameMaxLen {
		return errs.Invalid("MaxSize", field)
	}
	return nil
}

// ListBranches returns one page of branches by name and their count.
func (s *Service) ListBranches(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]BranchView, int64, error) {
	list, total, err := s.git.ListBranches(ctx, pathOf(a.Repo), opts)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.branchViews(ctx, list)
	return views, total, err
}

// Branch returns one branch.
func (s *Service) Branch(ctx context.Context, a *repos.Access, name string) (BranchView, error) {
	b, err := s.git.Branch(ctx, pathOf(a.Repo), name)
	if err != nil {
		return BranchView{}, err
	}
	views, err := s.branchViews(ctx, []ports.GitBranch{b})
	if err != nil {
		return BranchView{}, err
	}
	return views[0], nil
}

// branchViews finds the accounts behind the head commits' addresses, in
// one query.
func (s *Service) branchViews(ctx context.Context, list []ports.GitBranch) ([]BranchView, error) {
	emails := make([]string, 0, 2*len(list))
	for _, b := range list {
		emails = append(emails, b.Commit.Author.Email, b.Commit.Committer.Email)
	}
	users, err := s.usersByEmails(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := make([]BranchView, 0, len(list))
	for _, b := range list {
		out = append(out, BranchView{GitBranch: b,
			Author:    users[strings.ToLower(b.Commit.Author.Email)],
			Committer: users[strings.ToLower(b.Commit.Committer.Email)]})
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

// CreateBranch creates a branch from a branch, tag or commit (the default
// branch when none is named).
func (s *Service) CreateBranch(ctx context.Context, a *repos.Access, in CreateBranchInput) (BranchView, error) {
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
	b, err := s.git.CreateBranch(ctx, p, in.Name, rev.CommitID)
	if err != nil {
		return BranchView{}, refConflictMessage(err, refMsgBranchExists)
	}
	// A create event for the new branch is sent here once webhooks exist.
	views, err := s.branchViews(ctx, []ports.GitBranch{b})
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

// RenameBranch renames a branch. Renaming the default branch needs a
// repository administrator and makes the new name the default branch, in
// the database and in HEAD.
func (s *Service) RenameBranch(ctx context.Context, a *repos.Access, from, to string) error {
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
	if isDefault && !a.Perm.IsAdmin() {
		return errs.Forbidden(refMsgRenameNotAdmin)
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
	if isDefault {
		err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			r, err := tx.Repos.GetByID(ctx, a.Repo.ID)
			if err != nil {
				return err
			}
			r.DefaultBranch = to
			return tx.Repos.Update(ctx, r)
		})
		if err != nil {
			// Put the Git side back so that database and HEAD agree again.
			if undo := s.git.RenameBranch(ctx, p, to, from); undo != nil {
				s.log.Error("undo branch rename after a failed database update", "repo", a.Repo.ID,
					"from", to, "to", from, "err", undo)
			}
			return err
		}
		a.Repo.DefaultBranch = to
	}
	// Delete and create events for the two names are sent here once webhooks exist.
	return nil
}

// DeleteBranch deletes a branch other than the default one.
func (s *Service) DeleteBranch(ctx context.Context, a *repos.Access, name string) error {
	if err := refWritable(a); err != nil {
		return err
	}
	if name == a.Repo.DefaultBranch {
		return errs.Forbidden(refMsgDeleteDefault)
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

// ListTags returns one page of tags in Gitea's order and their count.
func (s *Service) ListTags(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]ports.GitTag, int64, error) {
	return s.git.ListTags(ctx, pathOf(a.Repo), opts)
}

// Tag returns one tag by name.
func (s *Service) Tag(ctx context.Context, a *repos.Access, name string) (ports.GitTag, error) {
	t, err := s.git.Tag(ctx, pathOf(a.Repo), name)
	if errors.Is(err, errs.ErrNotFound) {
		return ports.GitTag{}, errs.NotFound("tag doesn't exist: " + name)
	}
	return t, err
}

// CreateTag creates a tag at a branch, tag or commit (the default branch
// when none is named): annotated and signed by the caller when there is a
// message, lightweight otherwise.
func (s *Service) CreateTag(ctx context.Context, a *repos.Access, in CreateTagInput) (ports.GitTag, error) {
	if err := refNameValid("TagName", in.Name); err != nil {
		return ports.GitTag{}, err
	}
	target := in.Target
	if target == "" {
		target = a.Repo.DefaultBranch
	}
	p := pathOf(a.Repo)
	rev, err := s.git.Resolve(ctx, p, target)
	if errors.Is(err, errs.ErrNotFound) {
		return ports.GitTag{}, errs.NotFound("target not found: " + target)
	}
	if err != nil {
		return ports.GitTag{}, err
	}
	nt := ports.GitNewTag{Name: in.Name, CommitID: rev.CommitID, Message: in.Message}
	if in.Message != "" {
		nt.Tagger = s.refTagger(a.Caller.User)
	}
	t, err := s.git.CreateTag(ctx, p, nt)
	if err != nil {
		var c *ports.RefConflictError
		if errors.As(err, &c) {
			if c.Kind == ports.RefNameClash {
				return ports.GitTag{}, errs.Conflict("tag " + in.Name + " clashes with " + strings.TrimPrefix(c.Name, "refs/"))
			}
			return ports.GitTag{}, errs.Conflict("tag already exists [name: " + in.Name + "]")
		}
		return ports.GitTag{}, err
	}
	// A create event for the new tag is sent here once webhooks exist.
	return t, nil
}

// refTagger is u's Git identity (see gitIdentity) as a tagger, dated now.
func (s *Service) refTagger(u *user.User) ports.GitSignature {
	if u == nil {
		return ports.GitSignature{}
	}
	id := s.gitIdentity(u)
	return ports.GitSignature{Name: id.Name, Email: id.Email, When: s.clock.Now()}
}

// DeleteTag deletes a tag.
func (s *Service) DeleteTag(ctx context.Context, a *repos.Access, name string) error {
	if _, err := s.git.DeleteTag(ctx, pathOf(a.Repo), name); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errs.NotFound("tag doesn't exist: " + name)
		}
		return err
	}
	// A delete event for the tag is sent here once webhooks exist.
	return nil
}

// AnnotatedTag returns a tag object by its id.
func (s *Service) AnnotatedTag(ctx context.Context, a *repos.Access, sha string) (ports.GitTag, error) {
	if sha == "" {
		return ports.GitTag{}, errs.BadRequest("SHA not provided")
	}
	return s.git.AnnotatedTag(ctx, pathOf(a.Repo), sha)
}

// Refs returns the references whose names start with "refs/"+filter (all
// when filter is empty); none is not found.
func (s *Service) Refs(ctx context.Context, a *repos.Access, filter string) ([]ports.GitRef, error) {
	prefix := ""
	if filter != "" {
		prefix = "refs/" + filter
	}
	refs, err := s.git.ListRefs(ctx, pathOf(a.Repo), prefix)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, errs.NotFound("no reference matches")
	}
	return refs, nil
}

// Note returns the note of the commit ref names (a branch, tag or commit id).
func (s *Service) Note(ctx context.Context, a *repos.Access, ref string) (NoteView, error) {
	if !refPatternValid(ref) {
		return NoteView{}, refUnprocessable("no valid ref or sha: " + ref)
	}
	p := pathOf(a.Repo)
	rev, err := s.git.Resolve(ctx, p, ref)
	if err != nil {
		return NoteView{}, err
	}
	n, err := s.git.Note(ctx, p, rev.CommitID)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return NoteView{}, errs.NotFound("no note for " + ref)
		}
		return NoteView{}, err
	}
	users, err := s.usersByEmails(ctx, []string{n.Commit.Author.Email, n.Commit.Committer.Email})
	if err != nil {
		return NoteView{}, err
	}
	return NoteView{GitNote: n, Author: users[strings.ToLower(n.Commit.Author.Email)],
		Committer: users[strings.ToLower(n.Commit.Committer.Email)]}, nil
}

// refPatternValid is Gitea's IsValidRefPattern: a name Git could accept
// as a reference (slashes allowed, no "..", no control or special
// characters, no ".lock" components).
func refPatternValid(ref string) bool {
	if ref == "" || strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".") ||
		strings.Contains(ref, "..") || strings.Contains(ref, "//") || strings.Contains(ref, "@{") || ref == "@" {
		return false
	}
	for _, r := range ref {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	for _, part := range strings.Split(ref, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}
