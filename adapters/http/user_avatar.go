package http

// userAvatar serves 4.4's /user/avatar rows: the caller uploads or removes
// its own avatar. Without one, its avatar_url is the generated default
// (userAvatarURL).
type userAvatar struct{ *kernel }

// userAvatarRoutes are the rows of userAvatar.
func (s *kernel) userAvatarRoutes() []route {
	h := userAvatar{s}
	return []route{
		{"POST", "/user/avatar", scopes(catUser), "T", h.setMyAvatar},
		{"DELETE", "/user/avatar", scopes(catUser), "T", h.deleteMyAvatar},
	}
}

// setMyAvatar answers POST /user/avatar with Gitea's UpdateUserAvatarOption:
// 204; 422 without an image, when it is not one or is too large; 400 when
// it is not base64; 413 past the site's body limit.
func (s userAvatar) setMyAvatar(q *request) error {
	img, err := avatarImage(q)
	if err != nil {
		return err
	}
	return noContent(q, s.users.Avatars().Set(q.r.Context(), q.caller.User, img))
}

// deleteMyAvatar answers DELETE /user/avatar; 204 also when it had none.
func (s userAvatar) deleteMyAvatar(q *request) error {
	return noContent(q, s.users.Avatars().Delete(q.r.Context(), q.caller.User))
}
