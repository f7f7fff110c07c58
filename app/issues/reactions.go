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

// Reactions are the use cases of reactions: the same operations on the
// reactions of an issue and of a comment, told apart only by their parent.
type Reactions struct{ *Service }

// Reactions returns the reaction use cases.
func (s *Service) Reactions() Reactions { return Reactions{s} }

// open resolves parent p for the caller: its issue and the id of the
// comment (0 for the issue itself) whose reactions are meant.
func (s Reactions) open(ctx context.Context, a *repos.Access, p Parent) (*issue.Issue, int64, error) {
	i, c, err := s.openParent(ctx, a, p)
	if err != nil || c == nil {
		return i, 0, err
	}
	return i, c.ID, nil
}

// List returns one page of the reactions to p (to an issue itself, not to
// its comments), oldest first.
func (s Reactions) List(ctx context.Context, a *repos.Access, p Parent, opts ports.ListOptions) (*ReactionView, error) {
	i, commentID, err := s.open(ctx, a, p)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.Reactions.List(ctx, i.ID, commentID, opts)
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

// Add adds the caller's reaction typ to p. created is false when the
// caller had already reacted so: the existing reaction is returned (Gitea
// answers it with 200 instead of 201).
func (s Reactions) Add(ctx context.Context, a *repos.Access, p Parent, typ string) (r *issue.Reaction, created bool, err error) {
	i, commentID, err := s.open(ctx, a, p)
	if err != nil {
		return nil, false, err
	}
	if err := issue.CanReact(i, canWrite(a, i)); err != nil {
		return nil, false, err
	}
	if err := issue.CheckReaction(typ); err != nil {
		return nil, false, err
	}
	doer := a.Caller.UserID()
	r = &issue.Reaction{Type: typ, IssueID: i.ID, CommentID: commentID, UserID: doer, CreatedAt: s.timestamp()}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
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

// Remove removes the caller's reaction typ from p; removing one the caller
// never gave succeeds, as in Gitea.
func (s Reactions) Remove(ctx context.Context, a *repos.Access, p Parent, typ string) error {
	i, commentID, err := s.open(ctx, a, p)
	if err != nil {
		return err
	}
	if err := issue.CanReact(i, canWrite(a, i)); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Reactions.Remove(ctx, i.ID, commentID, a.Caller.UserID(), typ)
	})
}
