package http

// userRepoRoutes are the 4.4 rows of an account's repositories: those it
// owns, stars and watches. This file holds only the rows: their handlers
// are the repositories' (handlers_repo.go, handlers_repo_social.go).
func (s *kernel) userRepoRoutes() []route {
	return []route{
		{"GET", "/users/{username}/repos", scopes(catRepo), "Explore", s.listUserRepos},
		{"GET", "/users/{username}/starred", scopes(catUser), "T,ST", s.listUserStarred},
		{"GET", "/users/{username}/subscriptions", scopes(catUser), "T", s.listUserSubscriptions},
		{"GET", "/user/repos", scopes(catRepo), "T", s.listMyRepos},
		{"POST", "/user/repos", scopes(catRepo), "T", s.createMyRepo},
		{"GET", "/user/starred", scopes(catRepo), "T,ST", s.listMyStarred},
		{"GET", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", s.checkStarred},
		{"PUT", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST,NotBlocked", s.star},
		{"DELETE", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", s.unstar},
		{"GET", "/user/subscriptions", scopes(catUser), "T", s.listMySubscriptions},
	}
}
