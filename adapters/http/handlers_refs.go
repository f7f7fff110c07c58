package http

import (
	"net/http"

	"github.com/depothq/depot/app/content"
)

// refRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *kernel) refRoutes() []route {
	return []route{
		{"GET", R + "/branches", scopes(catRepo), "RR(code)", s.listBranches},
		{"POST", R + "/branches", scopes(catRepo), "T,RW(code),NA", s.createBranch},
		{"GET", R + "/branches/{branch:.*}", scopes(catRepo), "RR(code)", s.getBranch},
		{"PATCH", R + "/branches/{branch:.*}", scopes(catRepo), "T,RW(code),NA", s.renameBranch},
		{"DELETE", R + "/branches/{branch:.*}", scopes(catRepo), "T,RW(code),NA", s.deleteBranch},
		{"GET", R + "/tags", scopes(catRepo), "RR(code)", s.listTags},
		{"POST", R + "/tags", scopes(catRepo), "T,RW(code),NA", s.createTag},
		{"GET", R + "/tags/{tag:.*}", scopes(catRepo), "RR(code)", s.getTag},
		{"DELETE", R + "/tags/{tag:.*}", scopes(catRepo), "T,RW(code),NA", s.deleteTag},
		{"GET", R + "/git/refs", scopes(catRepo), "RR(code)", s.listRefs},
		{"GET", R + "/git/refs/{ref:.*}", scopes(catRepo), "RR(code)", s.listRefs},
		{"GET", R + "/git/tags/{sha}", scopes(catRepo), "RR(code)", s.getAnnotatedTag},
		{"GET", R + "/git/notes/{sha}", scopes(catRepo), "RR(code)", s.getNote},
	}
}

// listBranches answers GET R/branches: one page by name, with paging headers.
func (s *kernel) listBranches(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.content.ListBranches(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	out := make([]refBranchDTO, 0, len(list))
	for _, b := range list {
		out = append(out, s.toBranch(q.repo, b))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getBranch answers GET R/branches/{branch}.
func (s *kernel) getBranch(q *request) error {
	b, err := s.content.Branch(q.r.Context(), q.repo, q.var_("branch"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toBranch(q.repo, b))
	return nil
}

// createBranch answers POST R/branches with the new branch (201).
func (s *kernel) createBranch(q *request) error {
	var body refCreateBranchBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	b, err := s.content.CreateBranch(q.r.Context(), q.repo, content.CreateBranchInput{
		Name: body.BranchName, OldBranch: body.OldBranchName, OldRef: body.OldRefName})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toBranch(q.repo, b))
	return nil
}

// renameBranch answers PATCH R/branches/{branch} (204).
func (s *kernel) renameBranch(q *request) error {
	var body refUpdateBranchBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	if err := s.content.RenameBranch(q.r.Context(), q.repo, q.var_("branch"), body.Name); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteBranch answers DELETE R/branches/{branch} (204).
func (s *kernel) deleteBranch(q *request) error {
	if err := s.content.DeleteBranch(q.r.Context(), q.repo, q.var_("branch")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// listTags answers GET R/tags: one page in Gitea's order, with paging headers.
func (s *kernel) listTags(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.content.ListTags(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	out := make([]refTagDTO, 0, len(list))
	for _, t := range list {
		out = append(out, s.toTag(q.repo, t))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getTag answers GET R/tags/{tag}.
func (s *kernel) getTag(q *request) error {
	t, err := s.content.Tag(q.r.Context(), q.repo, q.var_("tag"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toTag(q.repo, t))
	return nil
}

// createTag answers POST R/tags with the new tag (201).
func (s *kernel) createTag(q *request) error {
	var body refCreateTagBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	t, err := s.content.CreateTag(q.r.Context(), q.repo, content.CreateTagInput{
		Name: body.TagName, Message: body.Message, Target: body.Target})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toTag(q.repo, t))
	return nil
}

// deleteTag answers DELETE R/tags/{tag} (204).
func (s *kernel) deleteTag(q *request) error {
	if err := s.content.DeleteTag(q.r.Context(), q.repo, q.var_("tag")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// listRefs answers GET R/git/refs and R/git/refs/{ref}: every reference
// under the prefix; a single reference named exactly is answered as an
// object rather than a list, as Gitea does.
func (s *kernel) listRefs(q *request) error {
	filter := q.var_("ref")
	refs, err := s.content.Refs(q.r.Context(), q.repo, filter)
	if err != nil {
		return err
	}
	if filter != "" && len(refs) == 1 && refs[0].Name == "refs/"+filter {
		q.json(http.StatusOK, s.toReference(q.repo, refs[0]))
		return nil
	}
	out := make([]refReferenceDTO, 0, len(refs))
	for _, r := range refs {
		out = append(out, s.toReference(q.repo, r))
	}
	q.json(http.StatusOK, out)
	return nil
}

// getAnnotatedTag answers GET R/git/tags/{sha}.
func (s *kernel) getAnnotatedTag(q *request) error {
	t, err := s.content.AnnotatedTag(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAnnotatedTag(q.repo, t))
	return nil
}

// getNote answers GET R/git/notes/{sha}; verification and files default to
// true, as in Gitea.
func (s *kernel) getNote(q *request) error {
	verification, files := true, true
	for name, dst := range map[string]*bool{"verification": &verification, "files": &files} {
		b, err := queryBool(q, name)
		if err != nil {
			return err
		}
		if b != nil {
			*dst = *b
		}
	}
	n, err := s.content.Note(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toNote(q.caller, q.repo, n, verification, files))
	return nil
}
