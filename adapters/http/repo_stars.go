package http

// repoStars serves the stars of repositories (catalogue 4.5). The rows of the
// caller's and a user's starred repositories (/user/starred…,
// /users/{username}/starred) sit with the user rows, so their handlers
// (listMyStarred, listUserStarred, checkStarred, star, unstar) are kernel
// methods.
type repoStars struct{ *kernel }

// repoStarRoutes are the rows of repoStars.
func (s *kernel) repoStarRoutes() []route {
	h := repoStars{s}
	return []route{
		{"GET", R + "/stargazers", scopes(catRepo), "ST", h.listStargazers},
	}
}

// listMyStarred answers GET /user/starred.
func (s repoStars) listMyStarred(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Stars().ListByUser(q.r.Context(), q.caller, q.caller.User, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// listUserStarred answers GET /users/{username}/starred.
func (s repoStars) listUserStarred(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Stars().ListByUser(q.r.Context(), q.caller, q.subject, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// checkStarred answers GET /user/starred/{owner}/{repo}: 204 or 404.
func (s repoStars) checkStarred(q *request) error {
	return noContent(q, s.repos.Stars().Check(q.r.Context(), q.repo))
}

// star answers PUT /user/starred/{owner}/{repo}.
func (s repoStars) star(q *request) error {
	return noContent(q, s.repos.Stars().Add(q.r.Context(), q.repo))
}

// unstar answers DELETE /user/starred/{owner}/{repo}.
func (s repoStars) unstar(q *request) error {
	return noContent(q, s.repos.Stars().Remove(q.r.Context(), q.repo))
}

// listStargazers answers GET R/stargazers.
func (s repoStars) listStargazers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Stars().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

// userStarRoutes are the 4.4 rows of an account's stars.
func (s *kernel) userStarRoutes() []route {
	h := repoStars{s}
	return []route{
		{"GET", "/users/{username}/starred", scopes(catUser), "T,ST", h.listUserStarred},
		{"GET", "/user/starred", scopes(catRepo), "T,ST", h.listMyStarred},
		{"GET", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", h.checkStarred},
		{"PUT", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST,NotBlocked", h.star},
		{"DELETE", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", h.unstar},
	}
}
