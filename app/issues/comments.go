package issues

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// errCommentNotFound answers an absent comment, one of another repository
// and one the caller may not see alike.
var errCommentNotFound = errs.NotFound("comment does not exist")

// errCommentChange is the answer to a caller who may neither edit nor
// delete a comment: not its poster and not a writer.
var errCommentChange = errs.Forbidden("user should be the poster of the comment or have write permission")

// CommentFilter narrows a comment listing: Since and Before bound the
// update time (both inclusive, zero unbounded).
type CommentFilter struct {
	Since, Before time.Time
	ports.ListOptions
}

// CommentView is a page of comments (or timeline events) with what their
// JSON shows, each kind loaded in one batch: the issues they belong to,
// the users they name (posters, assignees), attachments by comment, and for
// the timeline the labels, milestones, referenced issues and comments and
// the repositories of those issues. Maps leave out what no longer exists.
type CommentView struct {
	Comments    []*issue.Comment
	Total       int64
	Issues      map[int64]*issue.Issue
	Users       map[int64]*user.User
	Attachments map[int64][]*issue.Attachment

	Labels      map[int64]*issue.Label
	Milestones  map[int64]*issue.Milestone
	RefComments map[int64]*issue.Comment
	Repos       map[int64]*repository.Repository
	// IssueViews render the other issues events point at (references,
	// dependencies), by issue id.
	IssueViews map[int64]*IssueView
	// Times are the tracked times time events record, by id.
	Times map[int64]*issue.TrackedTime
	// Teams are the teams review request events name, by id.
	Teams map[int64]*org.Team
}

// Comments are the use cases of the comments of issues and pull requests.
type Comments struct{ *Service }

// Comments returns the comment use cases.
func (s *Service) Comments() Comments { return Comments{s} }

// List returns one page of an issue's plain comments, oldest first.
func (s Comments) List(ctx context.Context, a *repos.Access, index int64, f CommentFilter) (*CommentView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.Comments.List(ctx, ports.CommentQuery{IssueID: i.ID,
		Types: []issue.CommentType{issue.CommentPlain}, Since: f.Since, Before: f.Before, TextOnly: true,
		ListOptions: f.ListOptions})
	if err != nil {
		return nil, err
	}
	v := &CommentView{Comments: list, Total: total, Issues: map[int64]*issue.Issue{i.ID: i}}
	return v, s.loadCommentFacts(ctx, s.stores, v)
}

// ListRepo returns one page of the plain comments of a repository's
// issues and pull requests (those the caller may read), oldest first.
func (s Comments) ListRepo(ctx context.Context, a *repos.Access, f CommentFilter) (*CommentView, error) {
	issues := a.Repo.HasUnit(permission.UnitIssues) && (a.Perm.CanRead(permission.UnitIssues) || a.Caller.IsAdmin())
	pulls := a.Repo.HasUnit(permission.UnitPulls) && (a.Perm.CanRead(permission.UnitPulls) || a.Caller.IsAdmin())
	q := ports.CommentQuery{RepoID: a.Repo.ID, Types: []issue.CommentType{issue.CommentPlain},
		Since: f.Since, Before: f.Before, TextOnly: true, ListOptions: f.ListOptions}
	switch {
	case issues && pulls:
	case issues, pulls:
		only := pulls
		q.IsPull = &only
	default:
		return nil, errs.NotFound("issues are disabled or not readable")
	}
	list, total, err := s.stores.Comments.List(ctx, q)
	if err != nil {
		return nil, err
	}
	v := &CommentView{Comments: list, Total: total}
	if err := s.loadCommentIssues(ctx, s.stores, v); err != nil {
		return nil, err
	}
	return v, s.loadCommentFacts(ctx, s.stores, v)
}

// openComment finds comment id of the caller's repository on an issue the
// caller may read: 404 otherwise.
func (s *Service) openComment(ctx context.Context, st ports.Stores, a *repos.Access, id int64) (*issue.Comment, *issue.Issue, error) {
	if id <= 0 {
		return nil, nil, errCommentNotFound
	}
	c, err := st.Comments.GetByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if c.RepoID != a.Repo.ID {
		return nil, nil, errCommentNotFound
	}
	i, err := st.Issues.GetByID(ctx, c.IssueID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errCommentNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if i.RepoID != a.Repo.ID || !canRead(a, i) {
		return nil, nil, errCommentNotFound
	}
	return c, i, nil
}

// Get returns comment id with what its JSON shows. A timeline event
// is returned too: the caller answers it without a body, as Gitea does.
func (s Comments) Get(ctx context.Context, a *repos.Access, id int64) (*CommentView, error) {
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, err
	}
	v := &CommentView{Comments: []*issue.Comment{c}, Total: 1, Issues: map[int64]*issue.Issue{i.ID: i}}
	return v, s.loadCommentFacts(ctx, s.stores, v)
}

// Create adds a plain comment to issue index: counted on the issue,
// its references recorded and the issue_comment "created" event emitted,
// in one transaction. A locked issue takes comments from writers only.
func (s Comments) Create(ctx context.Context, a *repos.Access, index int64, body string) (*CommentView, error) {
	if err := issue.ValidateCommentBody(body); err != nil {
		return nil, err
	}
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if err := issue.CanCommentOn(i, canWrite(a, i)); err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	now := s.timestamp()
	c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: i.RepoID, PosterID: doer, Body: body,
		CreatedAt: now, UpdatedAt: now}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		// Someone the issue's poster blocked does not comment (Gitea's
		// rule; the owner's block is the row's NotBlocked code).
		if err := s.users.CheckNotBlocked(ctx, a.Caller.User, i.PosterID); err != nil {
			return err
		}
		if err := tx.Comments.Create(ctx, c); err != nil {
			return err
		}
		after := *i
		after.NumComments++
		after.UpdatedAt = now
		if err := s.recordReferences(ctx, tx, a.Repo, &after, c.ID, body, doer); err != nil {
			return err
		}
		return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventComment, Action: "created",
			Repo: a.Repo, Issue: &after, SenderID: doer, Comment: c})
	})
	if err != nil {
		return nil, err
	}
	i.NumComments++
	i.UpdatedAt = now
	v := &CommentView{Comments: []*issue.Comment{c}, Total: 1, Issues: map[int64]*issue.Issue{i.ID: i}}
	return v, s.loadCommentFacts(ctx, s.stores, v)
}

// Edit replaces the text of comment id. Only its poster or a writer
// may; an event without text is left alone and answered with a nil view
// (Gitea's 204). An unchanged text writes nothing.
func (s Comments) Edit(ctx context.Context, a *repos.Access, id int64, body string) (*CommentView, error) {
	if err := issue.ValidateCommentBody(body); err != nil {
		return nil, err
	}
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	if !issue.CanChangeComment(c, doer, canWrite(a, i)) {
		return nil, errCommentChange
	}
	if !c.Type.HasContent() {
		return nil, nil
	}
	if body != c.Body {
		old := c.Body
		err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			c.Body, c.UpdatedAt = body, s.timestamp()
			if err := tx.Comments.Update(ctx, c); err != nil {
				return err
			}
			if err := s.recordReferences(ctx, tx, a.Repo, i, c.ID, body, doer); err != nil {
				return err
			}
			return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventComment, Action: "edited",
				Repo: a.Repo, Issue: i, SenderID: doer, Comment: c, FromBody: &old})
		})
		if err != nil {
			return nil, err
		}
	}
	v := &CommentView{Comments: []*issue.Comment{c}, Total: 1, Issues: map[int64]*issue.Issue{i.ID: i}}
	return v, s.loadCommentFacts(ctx, s.stores, v)
}

// Delete removes comment id with its reactions and attachments
// (their files after the commit). Only its poster or a writer may; a code
// comment is left alone, as Gitea does. It reports whether it deleted.
func (s Comments) Delete(ctx context.Context, a *repos.Access, id int64) (bool, error) {
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return false, err
	}
	doer := a.Caller.UserID()
	if !issue.CanChangeComment(c, doer, canWrite(a, i)) {
		return false, errCommentChange
	}
	if c.Type == issue.CommentCode {
		return false, nil
	}
	var files []*issue.Attachment
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		if files, err = tx.Attachments.ListByIssue(ctx, i.ID, c.ID); err != nil {
			return err
		}
		if err := tx.Comments.Delete(ctx, c.ID); err != nil {
			return err
		}
		after := *i
		if c.Type == issue.CommentPlain && after.NumComments > 0 {
			after.NumComments--
		}
		return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventComment, Action: "deleted",
			Repo: a.Repo, Issue: &after, SenderID: doer, Comment: c})
	})
	if err != nil {
		return false, err
	}
	s.removeFiles(ctx, files)
	return true, nil
}

// loadCommentIssues fills v.Issues with the issues of v's comments.
func (s *Service) loadCommentIssues(ctx context.Context, st ports.Stores, v *CommentView) error {
	if v.Issues == nil {
		v.Issues = map[int64]*issue.Issue{}
	}
	var ids []int64
	for _, c := range v.Comments {
		if _, ok := v.Issues[c.IssueID]; !ok {
			ids = append(ids, c.IssueID)
		}
	}
	return s.addIssues(ctx, st, v, ids)
}

// addIssues loads the issues ids not yet in v.Issues, in one query.
func (s *Service) addIssues(ctx context.Context, st ports.Stores, v *CommentView, ids []int64) error {
	ids = missingIDs(ids, v.Issues)
	if len(ids) == 0 {
		return nil
	}
	list, err := st.Issues.GetByIDs(ctx, ids)
	if err != nil {
		return err
	}
	for _, i := range list {
		v.Issues[i.ID] = i
	}
	return nil
}

// loadCommentFacts fills the posters and attachments of v's comments, each
// in one query.
func (s *Service) loadCommentFacts(ctx context.Context, st ports.Stores, v *CommentView) error {
	ids := make([]int64, 0, len(v.Comments))
	posters := make([]int64, 0, len(v.Comments))
	for _, c := range v.Comments {
		ids = append(ids, c.ID)
		posters = append(posters, c.PosterID)
	}
	if err := s.addUsers(ctx, st, v, posters); err != nil {
		return err
	}
	att, err := st.Attachments.OfComments(ctx, ids)
	if err != nil {
		return err
	}
	v.Attachments = att
	return nil
}

// addUsers loads the users ids not yet in v.Users, in one query.
func (s *Service) addUsers(ctx context.Context, st ports.Stores, v *CommentView, ids []int64) error {
	if v.Users == nil {
		v.Users = map[int64]*user.User{}
	}
	ids = missingIDs(ids, v.Users)
	if len(ids) == 0 {
		return nil
	}
	list, err := st.Users.GetByIDs(ctx, ids)
	if err != nil {
		return err
	}
	for _, u := range list {
		v.Users[u.ID] = u
	}
	return nil
}

// missingIDs returns the positive ids of list that have no entry in have,
// each once.
func missingIDs[T any](list []int64, have map[int64]T) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range list {
		if id <= 0 || seen[id] {
			continue
		}
		seen[id] = true
		if _, ok := have[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}
