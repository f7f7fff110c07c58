package http

import (
	"net/http"
	"strings"
)

// orgAvatarRoutes are 4.8's avatar rows: an organisation's owners (or a
// site admin) upload or remove its avatar.
func (s *kernel) orgAvatarRoutes() []route {
	return []route{
		{"POST", "/orgs/{org}/avatar", scopes(catOrg), "T,OO", s.setOrgAvatar},
		{"DELETE", "/orgs/{org}/avatar", scopes(catOrg), "T,OO", s.deleteOrgAvatar},
	}
}

// setOrgAvatar answers POST /orgs/{org}/avatar with Gitea's
// UpdateUserAvatarOption: 204, 422 without an image or when it is not one,
// 400 when it is not base64 (as Gitea and R/avatar answer).
func (s *kernel) setOrgAvatar(q *request) error {
	img, err := avatarImage(q)
	if err != nil {
		return err
	}
	return noContent(q, s.orgs.Avatars().Set(q.r.Context(), q.org, img))
}

// deleteOrgAvatar answers DELETE /orgs/{org}/avatar; 204 also when it had none.
func (s *kernel) deleteOrgAvatar(q *request) error {
	return noContent(q, s.orgs.Avatars().Delete(q.r.Context(), q.org))
}

// serveAccountAvatar answers GET /avatars/{hash} with the PNG of an
// account's uploaded avatar (Gitea's avatar link), or the generated one of
// an account without (avatar_identicon.go).
func (s *kernel) serveAccountAvatar(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimPrefix(r.URL.Path, "/avatars/")
	img, err := s.orgs.Avatars().Open(r.Context(), hash)
	if err != nil && isIdenticonHash(hash) {
		img, err = renderIdenticon(hash)
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400, immutable")
	_, _ = w.Write(img) // a failed write means the client left
}

// accountAvatarURL is the link of an account's uploaded avatar, empty when
// it has none.
func (s *kernel) accountAvatarURL(hash string) string {
	if hash == "" {
		return ""
	}
	return s.baseURL + "/avatars/" + hash
}
