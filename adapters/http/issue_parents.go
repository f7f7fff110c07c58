package http

import "github.com/depothq/depot/app/issues"

// parentReader reads, from the route, what attachments or reactions hang
// on: the issue of {index} (issueParent) or the comment of {id}
// (commentParent).
type parentReader func(q *request) (issues.Parent, error)

// issueParent is the parent of R/issues/{index}/assets and
// R/issues/{index}/reactions.
func issueParent(q *request) (issues.Parent, error) {
	index, err := issueIndex(q)
	return issues.IssueParent(index), err
}

// commentParent is the parent of R/issues/comments/{id}/assets and
// R/issues/comments/{id}/reactions.
func commentParent(q *request) (issues.Parent, error) {
	id, err := commentID(q)
	return issues.CommentParent(id), err
}
