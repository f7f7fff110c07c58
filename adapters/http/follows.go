package http

import "github.com/depothq/depot/domain/user"

// follows serves 4.4's follow rows: the caller's followers and followings
// (check, follow, unfollow) and any visible account's. {username} is
// resolved by the middleware (404 when absent); the use cases answer 404
// for an account the caller may not see.
type follows struct{ *kernel }

// followRoutes are the rows of follows (all T, scope category user).
func (s *kernel) followRoutes() []route {
	h := follows{s}
	return []route{
		{"GET", "/user/followers", scopes(catUser), "T", h.listMyFollowers},
		{"GET", "/user/following", scopes(catUser), "T", h.listMyFollowing},
		{"GET", "/user/following/{username}", scopes(catUser), "T", h.checkMyFollowing},
		{"PUT", "/user/following/{username}", scopes(catUser), "T", h.follow},
		{"DELETE", "/user/following/{username}", scopes(catUser), "T", h.unfollow},

		{"GET", "/users/{username}/followers", scopes(catUser), "T", h.listUserFollowers},
		{"GET", "/users/{username}/following", scopes(catUser), "T", h.listUserFollowing},
		{"GET", "/users/{username}/following/{target}", scopes(catUser), "T", h.checkUserFollowing},
	}
}

// listMyFollowers answers GET /user/followers.
func (s follows) listMyFollowers(q *request) error { return s.listFollowers(q, q.caller.User) }

// listUserFollowers answers GET /users/{username}/followers.
func (s follows) listUserFollowers(q *request) error { return s.listFollowers(q, q.subject) }

// listMyFollowing answers GET /user/following.
func (s follows) listMyFollowing(q *request) error { return s.listFollowing(q, q.caller.User) }

// listUserFollowing answers GET /users/{username}/following.
func (s follows) listUserFollowing(q *request) error { return s.listFollowing(q, q.subject) }

func (s follows) listFollowers(q *request, u *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Follows().Followers(q.r.Context(), q.caller, u, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

func (s follows) listFollowing(q *request, u *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Follows().Following(q.r.Context(), q.caller, u, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

// checkMyFollowing answers GET /user/following/{username}: 204 or 404.
func (s follows) checkMyFollowing(q *request) error {
	return noContent(q, s.users.Follows().Check(q.r.Context(), q.caller, q.caller.User, q.subject))
}

// checkUserFollowing answers GET /users/{username}/following/{target}: 204
// when {username} follows {target}, else 404 (also for a hidden target).
func (s follows) checkUserFollowing(q *request) error {
	target, err := s.users.View(q.r.Context(), q.caller, q.var_("target"))
	if err != nil {
		return err
	}
	return noContent(q, s.users.Follows().Check(q.r.Context(), q.caller, q.subject, target))
}

// follow answers PUT /user/following/{username}: 204, 403 when a block
// stands between the two.
func (s follows) follow(q *request) error {
	return noContent(q, s.users.Follows().Follow(q.r.Context(), q.caller, q.subject))
}

// unfollow answers DELETE /user/following/{username}: 204.
func (s follows) unfollow(q *request) error {
	return noContent(q, s.users.Follows().Unfollow(q.r.Context(), q.caller, q.subject))
}
