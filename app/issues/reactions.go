package issues

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ReactionView is a page of reactions with their users, loaded in one query.
type ReactionView struct {
	Reactions []*issue.Reaction
	Total     int64
	Users     map[int64]*user.User
}

// IssueReactions returns one page of the reactions to issue index itself
// (not to its comments), oldest first.
func (s *Service) IssueReactions(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) (*ReactionView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.reactions(ctx, i.ID, 0, opts)
}

// CommentReactions returns one page of the reactions to comment id, oldest first.
func (s *Service) CommentReactions(ctx context.Context, a *repos.Access, id int64, opts ports.ListOptions) (*ReactionView, error) {
	c, _, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, err
	}
	return s.reactions(ctx, c.IssueID, c.ID, opts)
}

func (s *Service) reactions(ctx context.Context, issueID, commentID int64, opts ports.ListOptions) (*ReactionView, error) {
	list, total, err := s.stores.Reactions.List(ctx, issueID, commentID, opts)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.UserID)
	}
	v := &CommentView{}
	if err := s.addUsers(ctx, s.stores, v, ids); err != nil {
		return nil, err
	}
	return &ReactionView{Reactions: list, Total: total, Users: v.Users}, nil
}

// ReactToIssue adds the caller's reaction typ to issue index. created is
// false when the caller had already reacted so: the existing reaction is
// returned (Gitea answers it with 200 instead of 201).
func (s *Service) ReactToIssue(ctx context.Context, a *repos.Access, index int64, typ string) (r *issue.Reaction, created bool, err error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, false, err
	}
	return s.react(ctx, a, i, 0, typ)
}

// ReactToComment adds the caller's reaction typ to comment id, as ReactToIssue.
func (s *Service) ReactToComment(ctx context.Context, a *repos.Access, id int64, typ string) (r *issue.Reaction, created bool, err error) {
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, false, err
	}
	return s.react(ctx, a, i, c.ID, typ)
}

func (s *Service) react(ctx context.Context, a *repos.Access, i *issue.Issue, commentID int64, typ string) (*issue.Reaction, bool, error) {
	if err := issue.CanReact(i, canWrite(a, i)); err != nil {
		return nil, false, err
	}
	if err := issue.CheckReaction(typ); err != nil {
		return nil, false, err
	}
	doer := a.Caller.UserID()
	r := &issue.Reaction{Type: typ, IssueID: i.ID, CommentID: commentID, UserID: doer, CreatedAt: s.cmNow()}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Reactions.Add(ctx, r)
	})
	if errors.Is(err, errs.ErrConflict) {
		old, err := s.stores.Reactions.Get(ctx, i.ID, commentID, doer, typ)
		return old, false, err
	}
	if err != nil {
		return nil, false, err
	}
	return r, true, nil
}

// UnreactToIssue removes the caller's reaction typ from issue index;
// removing one the caller never gave succeeds, as in Gitea.
func (s *Service) UnreactToIssue(ctx context.Context, a *repos.Access, index int64, typ string) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	return s.unreact(ctx, a, i, 0, typ)
}

// UnreactToComment removes the caller's reaction typ from comment id, as UnreactToIssue.
func (s *Service) UnreactToComment(ctx context.Context, a *repos.Access, id int64, typ string) error {
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return err
	}
	return s.unreact(ctx, a, i, c.ID, typ)
}

func (s *Service) unreact(ctx context.Context, a *repos.Access, i *issue.Issue, commentID int64, typ string) error {
	if err := issue.CanReact(i, canWrite(a, i)); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Reactions.Remove(ctx, i.ID, commentID, a.Caller.UserID(), typ)
	})
}
