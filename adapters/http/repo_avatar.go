package http

import (
	"net/http"
	"strings"
)

// repoAvatars serves the avatars of repositories (catalogue 4.5). The image
// itself is served at /repo-avatars/{hash}, outside the API (serveRepoAvatar).
type repoAvatars struct{ *kernel }

// repoAvatarRoutes are the rows of repoAvatars.
func (s *kernel) repoAvatarRoutes() []route {
	h := repoAvatars{s}
	return []route{
		{"POST", R + "/avatar", scopes(catRepo), "T,RA,NA", h.setRepoAvatar},
		{"DELETE", R + "/avatar", scopes(catRepo), "T,RA,NA", h.deleteRepoAvatar},
	}
}

// setRepoAvatar answers POST R/avatar.
func (s repoAvatars) setRepoAvatar(q *request) error {
	img, err := avatarImage(q)
	if err != nil {
		return err
	}
	return noContent(q, s.repos.Avatars().Set(q.r.Context(), q.repo, img))
}

// deleteRepoAvatar answers DELETE R/avatar.
func (s repoAvatars) deleteRepoAvatar(q *request) error {
	return noContent(q, s.repos.Avatars().Delete(q.r.Context(), q.repo))
}

// serveRepoAvatar answers GET /repo-avatars/{hash} with the PNG.
func (s *kernel) serveRepoAvatar(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimPrefix(r.URL.Path, "/repo-avatars/")
	img, err := s.repos.Avatars().Get(r.Context(), hash)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400, immutable")
	_, _ = w.Write(img) // a failed write means the client left
}
