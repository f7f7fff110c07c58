package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/permission"
)

// repoBranches serves a repository's branches (catalogue 4.5).
type repoBranches struct{ *kernel }

// branchRoutes are the rows of repoBranches.
func (s *kernel) branchRoutes() []route {
	h := repoBranches{s}
	return []route{
		{"GET", R + "/branches", scopes(catRepo), "RR(code)", h.listBranches},
		{"POST", R + "/branches", scopes(catRepo), "T,RW(code),NA", h.createBranch},
		{"GET", R + "/branches/{branch:.*}", scopes(catRepo), "RR(code)", h.getBranch},
		{"PUT", R + "/branches/{branch:.*}", scopes(catRepo), "T,RW(code),NA", h.updateBranchRef},
		{"PATCH", R + "/branches/{branch:.*}", scopes(catRepo), "T,RW(code),NA", h.renameBranch},
		{"DELETE", R + "/branches/{branch:.*}", scopes(catRepo), "T,RW(code),NA", h.deleteBranch},
	}
}

// listBranches answers GET R/branches: one page by name, with paging headers.
func (s repoBranches) listBranches(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.content.Branches().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	view, err := s.repos.BranchProtections().ViewFor(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	out := make([]refBranchDTO, 0, len(list))
	for _, b := range list {
		out = append(out, s.toBranch(q.repo, view, b))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getBranch answers GET R/branches/{branch}.
func (s repoBranches) getBranch(q *request) error {
	b, err := s.content.Branches().Get(q.r.Context(), q.repo, q.var_("branch"))
	if err != nil {
		return err
	}
	return s.answerBranch(q, http.StatusOK, b)
}

// answerBranch renders one branch with its protection.
func (s repoBranches) answerBranch(q *request, status int, b content.BranchView) error {
	view, err := s.repos.BranchProtections().ViewFor(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(status, s.toBranch(q.repo, view, b))
	return nil
}

// createBranch answers POST R/branches with the new branch (201).
func (s repoBranches) createBranch(q *request) error {
	var body refCreateBranchBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	b, err := s.content.Branches().Create(q.r.Context(), q.repo, content.CreateBranchInput{
		Name: body.BranchName, OldBranch: body.OldBranchName, OldRef: body.OldRefName})
	if err != nil {
		return err
	}
	return s.answerBranch(q, http.StatusCreated, b)
}

// renameBranch answers PATCH R/branches/{branch} (204).
func (s repoBranches) renameBranch(q *request) error {
	var body refUpdateBranchBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	if err := s.content.Branches().Rename(q.r.Context(), q.repo, q.var_("branch"), body.Name); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// updateBranchRef answers PUT R/branches/{branch}: the branch moved to a
// commit (204), Gitea's UpdateBranch since 1.26's API addition.
func (s repoBranches) updateBranchRef(q *request) error {
	var body struct {
		NewCommitID string `json:"new_commit_id"`
		OldCommitID string `json:"old_commit_id"`
		Force       bool   `json:"force"`
	}
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	return noContent(q, s.content.Branches().UpdateRef(q.r.Context(), q.repo, q.var_("branch"),
		content.UpdateRefInput{NewCommitID: body.NewCommitID, OldCommitID: body.OldCommitID, Force: body.Force}))
}

// deleteBranch answers DELETE R/branches/{branch} (204).
func (s repoBranches) deleteBranch(q *request) error {
	if err := s.content.Branches().Delete(q.r.Context(), q.repo, q.var_("branch")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// refCreateBranchBody is Gitea's CreateBranchRepoOption.
type refCreateBranchBody struct {
	BranchName    string `json:"new_branch_name"`
	OldBranchName string `json:"old_branch_name"`
	OldRefName    string `json:"old_ref_name"`
}

// refUpdateBranchBody is Gitea's UpdateBranchRepoOption.
type refUpdateBranchBody struct {
	Name string `json:"name"`
}

// refPayloadCommitDTO is Gitea's PayloadCommit, the head commit of a branch.
type refPayloadCommitDTO struct {
	ID           string           `json:"id"`
	Message      string           `json:"message"`
	URL          string           `json:"url"`
	Author       *payloadUserDTO  `json:"author"`
	Committer    *payloadUserDTO  `json:"committer"`
	Verification *verificationDTO `json:"verification"`
	Timestamp    time.Time        `json:"timestamp"`
	Added        []string         `json:"added"`
	Removed      []string         `json:"removed"`
	Modified     []string         `json:"modified"`
}

// refBranchDTO is Gitea's Branch.
type refBranchDTO struct {
	Name                          string               `json:"name"`
	Commit                        *refPayloadCommitDTO `json:"commit"`
	Protected                     bool                 `json:"protected"`
	RequiredApprovals             int64                `json:"required_approvals"`
	EnableStatusCheck             bool                 `json:"enable_status_check"`
	StatusCheckContexts           []string             `json:"status_check_contexts"`
	UserCanPush                   bool                 `json:"user_can_push"`
	UserCanMerge                  bool                 `json:"user_can_merge"`
	EffectiveBranchProtectionName string               `json:"effective_branch_protection_name"`
}

// toBranch renders a branch as Gitea's ToBranch does: unprotected, whoever
// may write code may push to it and merge into it; protected, the rule
// decides, and only repository administrators learn the rule's name.
func (s repoBranches) toBranch(a *repos.Access, view repos.View, b content.BranchView) refBranchDTO {
	c := b.Commit
	canWrite := a.Caller.Signed() && (a.Perm.CanWrite(permission.UnitCode) || a.Perm.IsAdmin())
	d := refBranchDTO{
		Name: b.Name,
		Commit: &refPayloadCommitDTO{
			ID: c.ID, Message: c.Message, URL: s.repoWebURL(a.Repo) + "/commit/" + c.ID,
			Author: payloadUser(c.Author, b.Author), Committer: payloadUser(c.Committer, b.Committer),
			Verification: toVerification(b.Verification), Timestamp: c.Author.When,
		},
		StatusCheckContexts: []string{},
		UserCanPush:         canWrite,
		UserCanMerge:        canWrite,
	}
	p := view.Rules.Match(b.Name)
	if p == nil {
		return d
	}
	r := p.Rule()
	d.Protected, d.RequiredApprovals, d.EnableStatusCheck = true, r.RequiredApprovals, r.EnableStatusCheck
	if len(r.StatusCheckContexts) > 0 {
		d.StatusCheckContexts = r.StatusCheckContexts
	}
	if a.Perm.IsAdmin() || a.Caller.IsAdmin() {
		d.EffectiveBranchProtectionName = r.Name
	}
	signed := a.Caller.Signed()
	d.UserCanPush = signed && p.CanPush(view.Doer)
	d.UserCanMerge = signed && p.CanMerge(view.Doer)
	return d
}
