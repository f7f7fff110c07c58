package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/domain/user"
)

// userBadges serves a site admin's badges of a user (catalogue 4.9). The
// badges themselves are defined with the admin CLI.
type userBadges struct{ *kernel }

// userBadgeRoutes are the rows of userBadges.
func (s *kernel) userBadgeRoutes() []route {
	h := userBadges{s}
	return []route{
		{"GET", "/admin/users/{username}/badges", scopes(catAdmin), "T,SA", h.listUserBadges},
		{"POST", "/admin/users/{username}/badges", scopes(catAdmin), "T,SA", h.addUserBadges},
		{"DELETE", "/admin/users/{username}/badges", scopes(catAdmin), "T,SA", h.deleteUserBadges},
	}
}

// badgeDTO is Gitea's Badge.
type badgeDTO struct {
	ID          int64  `json:"id"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	ImageURL    string `json:"image_url"`
}

// userBadgeBody is Gitea's UserBadgeOption.
type userBadgeBody struct {
	BadgeSlugs []string `json:"badge_slugs"`
}

// listUserBadges answers GET /admin/users/{username}/badges.
func (s userBadges) listUserBadges(q *request) error {
	list, err := s.users.UserBadges().Of(q.r.Context(), q.subject)
	if err != nil {
		return err
	}
	out := make([]badgeDTO, 0, len(list))
	for _, b := range list {
		out = append(out, toBadge(b))
	}
	// Gitea lists all of a user's badges in one page and counts them.
	q.w.Header().Set("X-Total-Count", strconv.Itoa(len(out)))
	q.json(http.StatusOK, out)
	return nil
}

// addUserBadges answers POST /admin/users/{username}/badges.
func (s userBadges) addUserBadges(q *request) error {
	var b userBadgeBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.users.UserBadges().Give(q.r.Context(), q.subject, b.BadgeSlugs); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteUserBadges answers DELETE /admin/users/{username}/badges.
func (s userBadges) deleteUserBadges(q *request) error {
	var b userBadgeBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.users.UserBadges().Take(q.r.Context(), q.subject, b.BadgeSlugs); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

func toBadge(b *user.Badge) badgeDTO {
	return badgeDTO{ID: b.ID, Slug: b.Slug, Description: b.Description, ImageURL: b.ImageURL}
}
