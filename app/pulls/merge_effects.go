package pulls

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// maxKeywordCommits bounds the merged commits whose messages are read for
// closing and reopening keywords.
const maxKeywordCommits = 250

// applyKeywordReferences closes or reopens the issues that the pull
// request's body or the merged commits' messages name after a closing
// keyword ("fixes #3", "closes owner/repo#4") or a reopening one ("reopens
// #5"), as Gitea does after a merge: each as the merger, who must be
// allowed to change its state there (the issue tracker decides, with its
// timeline and webhook events). An issue named several times ends as the
// last keyword says, reading the body first and then the commits oldest
// first (Gitea acts on the body at the merge and on the commits when it
// processes the push that follows); one already in that state is left
// alone. It runs after the merge committed; what it cannot change is
// logged, never the merge's failure.
func (s *Service) applyKeywordReferences(ctx context.Context, base *repository.Repository, i *issue.Issue, doer *user.User,
	m mergedCommit) {
	texts := []string{i.Body}
	if m.baseBefore != "" {
		list, _, err := s.git.ListCommits(ctx, pathOf(base), ports.CommitListQuery{Ref: m.id, Not: m.baseBefore, SkipTotal: true},
			ports.ListOptions{Page: 1, Limit: maxKeywordCommits})
		if err != nil {
			s.log.Warn("reading merged commits for closing keywords", "repo", base.ID, "err", err)
		}
		// git log's order, newest first: read oldest first.
		for n := len(list) - 1; n >= 0; n-- {
			texts = append(texts, list[n].Message)
		}
	}
	type target struct {
		owner, name string
		index       int64
	}
	var order []target
	action := map[target]pull.KeywordAction{}
	for _, text := range texts {
		for _, ref := range pull.KeywordReferences(text) {
			owner, name := ref.Owner, ref.Repo
			if owner == "" {
				owner, name = base.Owner.Name, base.Name
			}
			key := target{strings.ToLower(owner), strings.ToLower(name), ref.Index}
			if _, seen := action[key]; !seen {
				if len(order) == pull.MaxKeywordReferences {
					continue
				}
				order = append(order, key)
			}
			action[key] = ref.Action
		}
	}
	caller := auth.Caller{User: doer}
	for _, key := range order {
		if err := s.applyKeywordReference(ctx, caller, key.owner, key.name, key.index, action[key], i); err != nil {
			s.log.Info("not changing a referenced issue", "ref", key.owner+"/"+key.name+"#"+itoa(key.index), "err", err)
		}
	}
}

// applyKeywordReference closes or reopens one referenced issue (not the
// merged pull request itself, nor another pull request; nor one already
// in the state asked).
func (s *Service) applyKeywordReference(ctx context.Context, caller auth.Caller, owner, name string, index int64,
	action pull.KeywordAction, merged *issue.Issue) error {
	a, err := s.repos.Open(ctx, caller, owner, name)
	if err != nil {
		return err
	}
	target, err := s.stores.Issues.GetByIndex(ctx, a.Repo.ID, index)
	if err != nil {
		return err
	}
	state := issue.StateClosed
	if action == pull.KeywordReopens {
		state = issue.StateOpen
	}
	if target.ID == merged.ID || target.IsPull || target.IsClosed == (state == issue.StateClosed) {
		return nil
	}
	want := string(state)
	_, err = s.issues.Issues().Edit(ctx, a, index, issues.EditInput{State: &want})
	if errors.Is(err, errs.ErrForbidden) {
		return errs.Forbidden("the merger may not change the state of this issue")
	}
	return err
}
