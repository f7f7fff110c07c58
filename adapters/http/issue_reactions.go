package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
)

// issueReactions serves the reactions of issues and of comments (catalogue
// 4.6): one handler set, told the parent by the row.
type issueReactions struct{ *kernel }

// commentReactionRoutes are the rows of issueReactions under
// R/issues/comments/{id}; every row carries IssuesOrPulls (404 when the
// tracker is off or unreadable).
func (s *kernel) commentReactionRoutes() []route {
	h := issueReactions{s}
	return []route{
		{"GET", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls", h.list(commentParent)},
		{"POST", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", h.add(commentParent)},
		{"DELETE", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", h.remove(commentParent)},
	}
}

// issueReactionRoutes are the rows of issueReactions under R/issues/{index}.
func (s *kernel) issueReactionRoutes() []route {
	h := issueReactions{s}
	return []route{
		{"GET", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls", h.list(issueParent)},
		{"POST", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", h.add(issueParent)},
		{"DELETE", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", h.remove(issueParent)},
	}
}

// reactionBody is Gitea's EditReactionOption.
type reactionBody struct {
	Reaction string `json:"content"`
}

func decodeReaction(q *request) (string, error) {
	var b reactionBody
	if err := decodeJSON(q.r, &b); err != nil {
		return "", err
	}
	return b.Reaction, nil
}

// list answers GET <parent>/reactions with a page of reactions.
func (s issueReactions) list(p parentReader) handler {
	return func(q *request) error {
		parent, err := p(q)
		if err != nil {
			return err
		}
		opts, err := s.listOptions(q.r)
		if err != nil {
			return err
		}
		v, err := s.issues.Reactions().List(q.r.Context(), q.repo, parent, opts)
		if err != nil {
			return err
		}
		out := make([]reactionDTO, len(v.Reactions))
		for i, r := range v.Reactions {
			out[i] = s.toReactionDTO(q.caller, v.Users, r)
		}
		s.setPaging(q.w, q.r, opts, v.Total)
		q.json(http.StatusOK, out)
		return nil
	}
}

// add answers POST <parent>/reactions: 201 for a new reaction, 200 with
// the existing one.
func (s issueReactions) add(p parentReader) handler {
	return func(q *request) error {
		parent, err := p(q)
		if err != nil {
			return err
		}
		typ, err := decodeReaction(q)
		if err != nil {
			return err
		}
		r, created, err := s.issues.Reactions().Add(q.r.Context(), q.repo, parent, typ)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		users := map[int64]*user.User{}
		if q.caller.User != nil {
			users[q.caller.User.ID] = q.caller.User
		}
		q.json(status, s.toReactionDTO(q.caller, users, r))
		return nil
	}
}

// remove answers DELETE <parent>/reactions with 200 (Gitea's status),
// whether or not the caller had reacted so.
func (s issueReactions) remove(p parentReader) handler {
	return func(q *request) error {
		parent, err := p(q)
		if err != nil {
			return err
		}
		typ, err := decodeReaction(q)
		if err != nil {
			return err
		}
		if err := s.issues.Reactions().Remove(q.r.Context(), q.repo, parent, typ); err != nil {
			return err
		}
		q.w.WriteHeader(http.StatusOK)
		return nil
	}
}

// reactionDTO is Gitea's Reaction.
type reactionDTO struct {
	User     *userDTO  `json:"user"`
	Reaction string    `json:"content"`
	Created  time.Time `json:"created_at"`
}

func (s *kernel) toReactionDTO(c auth.Caller, users map[int64]*user.User, r *issue.Reaction) reactionDTO {
	return reactionDTO{User: s.commentUser(c, users, r.UserID), Reaction: r.Type, Created: r.CreatedAt.UTC()}
}
