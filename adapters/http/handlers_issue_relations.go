package http

import (
	"context"
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// listIssueSubscribers answers GET R/issues/{index}/subscriptions.
func (s *kernel) listIssueSubscribers(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.IssueSubscribers(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// checkIssueSubscription answers GET R/issues/{index}/subscriptions/check.
func (s *kernel) checkIssueSubscription(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	on, i, err := s.issues.CheckIssueSubscription(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	issueURL := s.issueAPIURL(q.repo.Repo, i.Index)
	q.json(http.StatusOK, issueWatchDTO{Subscribed: on, Ignored: !on, CreatedAt: i.CreatedAt.UTC(),
		URL: issueURL + "/subscriptions", RepositoryURL: s.repoAPIURL(q.repo)})
	return nil
}

// subscribeIssue answers PUT R/issues/{index}/subscriptions/{user}: 201
// when subscribed now, 200 when already.
func (s *kernel) subscribeIssue(q *request) error { return s.issueSubscription(q, true) }

// unsubscribeIssue answers DELETE R/issues/{index}/subscriptions/{user}:
// 201 when unsubscribed now, 200 when already.
func (s *kernel) unsubscribeIssue(q *request) error { return s.issueSubscription(q, false) }

func (s *kernel) issueSubscription(q *request, watch bool) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	changed, err := s.issues.SetIssueSubscription(q.r.Context(), q.repo, index, q.var_("user"), watch)
	if err != nil {
		return err
	}
	if changed {
		q.w.WriteHeader(http.StatusCreated)
	} else {
		q.w.WriteHeader(http.StatusOK)
	}
	return nil
}

// listIssueDependencies answers GET R/issues/{index}/dependencies.
func (s *kernel) listIssueDependencies(q *request) error {
	return s.linkedIssues(q, s.issues.Dependencies)
}

// listIssueBlocks answers GET R/issues/{index}/blocks.
func (s *kernel) listIssueBlocks(q *request) error {
	return s.linkedIssues(q, s.issues.Blocks)
}

func (s *kernel) linkedIssues(q *request, list func(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) ([]issues.LinkedIssue, error)) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	linked, err := list(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	out, err := s.linkedIssueDTOs(q, linked)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out)
	return nil
}

// issueDependency answers POST and DELETE of R/issues/{index}/dependencies
// (blocks false) and R/issues/{index}/blocks (blocks true) with the path's
// issue: 201 when added, 200 when removed.
func (s *kernel) issueDependency(blocks, add bool) handler {
	return func(q *request) error {
		index, err := issueIndex(q)
		if err != nil {
			return err
		}
		var b struct {
			Owner string `json:"owner"`
			Repo  string `json:"repo"`
			Index int64  `json:"index"`
		}
		if err := decodeJSON(q.r, &b); err != nil {
			return err
		}
		ref := issues.IssueRef{Owner: b.Owner, Repo: b.Repo, Index: b.Index}
		i, err := s.issues.ChangeDependency(q.r.Context(), q.repo, index, ref, blocks, add)
		if err != nil {
			return err
		}
		out, err := s.linkedIssueDTOs(q, []issues.LinkedIssue{{Issue: i, Repo: q.repo.Repo}})
		if err != nil {
			return err
		}
		status := http.StatusOK
		if add {
			status = http.StatusCreated
		}
		q.json(status, out[0])
		return nil
	}
}

// pinIssue answers POST R/issues/{index}/pin with 204.
func (s *kernel) pinIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.PinIssue(q.r.Context(), q.repo, index))
}

// unpinIssue answers DELETE R/issues/{index}/pin with 204.
func (s *kernel) unpinIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.UnpinIssue(q.r.Context(), q.repo, index))
}

// moveIssuePin answers PATCH R/issues/{index}/pin/{position} with 204.
func (s *kernel) moveIssuePin(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	pos, err := strconv.Atoi(q.var_("position"))
	if err != nil {
		return errs.BadRequest("position: must be an integer")
	}
	return noContent(q, s.issues.MovePin(q.r.Context(), q.repo, index, pos))
}

// listPinnedIssues answers GET R/issues/pinned with the pinned issues in
// pin order.
func (s *kernel) listPinnedIssues(q *request) error {
	list, err := s.issues.PinnedIssues(q.r.Context(), q.repo, false)
	if err != nil {
		return err
	}
	linked := make([]issues.LinkedIssue, len(list))
	for i, is := range list {
		linked[i] = issues.LinkedIssue{Issue: is, Repo: q.repo.Repo}
	}
	out, err := s.linkedIssueDTOs(q, linked)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out)
	return nil
}

// newPinAllowed answers GET R/new_pin_allowed.
func (s *kernel) newPinAllowed(q *request) error {
	is, pulls, err := s.issues.NewPinAllowed(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, pinsAllowedDTO{Issues: is, PullRequests: pulls})
	return nil
}

// lockIssue answers PUT R/issues/{index}/lock: 204, or 208 when it was
// locked already (Gitea's answer).
func (s *kernel) lockIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b struct {
		Reason string `json:"lock_reason"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	return s.lockAnswer(q)(s.issues.SetLocked(q.r.Context(), q.repo, index, true, b.Reason))
}

// unlockIssue answers DELETE R/issues/{index}/lock: 204, or 208 when it
// was not locked.
func (s *kernel) unlockIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.lockAnswer(q)(s.issues.SetLocked(q.r.Context(), q.repo, index, false, ""))
}

func (s *kernel) lockAnswer(q *request) func(changed bool, err error) error {
	return func(changed bool, err error) error {
		if err != nil {
			return err
		}
		if changed {
			q.w.WriteHeader(http.StatusNoContent)
		} else {
			q.w.WriteHeader(http.StatusAlreadyReported)
		}
		return nil
	}
}

// listIssueTemplates answers GET R/issue_templates.
func (s *kernel) listIssueTemplates(q *request) error {
	list, err := s.issues.IssueTemplates(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toIssueTemplates(list))
	return nil
}

// getIssueConfig answers GET R/issue_config (the default config when the
// file is absent or broken).
func (s *kernel) getIssueConfig(q *request) error {
	c, _, err := s.issues.IssueTemplateConfig(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toIssueConfig(c))
	return nil
}

// validateIssueConfig answers GET R/issue_config/validate.
func (s *kernel) validateIssueConfig(q *request) error {
	_, problem, err := s.issues.IssueTemplateConfig(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, issueConfigValidationDTO{Valid: problem == "", Message: problem})
	return nil
}
