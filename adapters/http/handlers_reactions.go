package http

import (
	"net/http"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The reaction handlers of issues and comments (their rows are in
// commentRoutes).

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

// writeReactions answers a page of reactions.
func (s *kernel) writeReactions(q *request, opts ports.ListOptions, v *issues.ReactionView) {
	out := make([]reactionDTO, len(v.Reactions))
	for i, r := range v.Reactions {
		out[i] = s.toReactionDTO(q.caller, v.Users, r)
	}
	s.setPaging(q.w, q.r, opts, v.Total)
	q.json(http.StatusOK, out)
}

// listIssueReactions answers GET R/issues/{index}/reactions.
func (s *kernel) listIssueReactions(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v, err := s.issues.IssueReactions(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	s.writeReactions(q, opts, v)
	return nil
}

// listCommentReactions answers GET R/issues/comments/{id}/reactions.
func (s *kernel) listCommentReactions(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v, err := s.issues.CommentReactions(q.r.Context(), q.repo, id, opts)
	if err != nil {
		return err
	}
	s.writeReactions(q, opts, v)
	return nil
}

// postIssueReaction answers POST R/issues/{index}/reactions: 201 for a new
// reaction, 200 with the existing one.
func (s *kernel) postIssueReaction(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	r, created, err := s.issues.ReactToIssue(q.r.Context(), q.repo, index, typ)
	return s.writeReaction(q, r, created, err)
}

// postCommentReaction answers POST R/issues/comments/{id}/reactions.
func (s *kernel) postCommentReaction(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	r, created, err := s.issues.ReactToComment(q.r.Context(), q.repo, id, typ)
	return s.writeReaction(q, r, created, err)
}

func (s *kernel) writeReaction(q *request, r *issue.Reaction, created bool, err error) error {
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

// deleteIssueReaction answers DELETE R/issues/{index}/reactions with 200
// (Gitea's status), whether or not the caller had reacted so.
func (s *kernel) deleteIssueReaction(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	if err := s.issues.UnreactToIssue(q.r.Context(), q.repo, index, typ); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// deleteCommentReaction answers DELETE R/issues/comments/{id}/reactions with 200.
func (s *kernel) deleteCommentReaction(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	if err := s.issues.UnreactToComment(q.r.Context(), q.repo, id, typ); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}
