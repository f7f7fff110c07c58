package http

// orgAvatars serves 4.8's avatar rows: an organisation's owners (or a
// site admin) upload or remove its avatar.
type orgAvatars struct{ *kernel }

// orgAvatarRoutes are the rows of orgAvatars.
func (s *kernel) orgAvatarRoutes() []route {
	h := orgAvatars{s}
	return []route{
		{"POST", "/orgs/{org}/avatar", scopes(catOrg), "T,OO", h.setOrgAvatar},
		{"DELETE", "/orgs/{org}/avatar", scopes(catOrg), "T,OO", h.deleteOrgAvatar},
	}
}

// setOrgAvatar answers POST /orgs/{org}/avatar with Gitea's
// UpdateUserAvatarOption: 204, 422 without an image or when it is not one,
// 400 when it is not base64 (as Gitea and R/avatar answer).
func (s orgAvatars) setOrgAvatar(q *request) error {
	img, err := avatarImage(q)
	if err != nil {
		return err
	}
	return noContent(q, s.orgs.Avatars().Set(q.r.Context(), q.org, img))
}

// deleteOrgAvatar answers DELETE /orgs/{org}/avatar; 204 also when it had none.
func (s orgAvatars) deleteOrgAvatar(q *request) error {
	return noContent(q, s.orgs.Avatars().Delete(q.r.Context(), q.org))
}
