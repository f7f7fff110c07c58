package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/repos"
)

// tagProtections serves a repository's tag protection rules (catalogue 4.5).
type tagProtections struct{ *kernel }

// tagProtectionRoutes are the rows of tagProtections.
func (s *kernel) tagProtectionRoutes() []route {
	h := tagProtections{s}
	return []route{
		{"GET", R + "/tag_protections", scopes(catRepo), "T,RA", h.listTagProtections},
		{"POST", R + "/tag_protections", scopes(catRepo), "T,RA,NA", h.createTagProtection},
		{"GET", R + "/tag_protections/{id}", scopes(catRepo), "T,RA", h.getTagProtection},
		{"PATCH", R + "/tag_protections/{id}", scopes(catRepo), "T,RA,NA", h.editTagProtection},
		{"DELETE", R + "/tag_protections/{id}", scopes(catRepo), "T,RA", h.deleteTagProtection},
	}
}

// listTagProtections answers GET R/tag_protections: one page by id, with
// paging headers (Gitea answers every rule at once; a repository has few,
// and the default page holds them).
func (s tagProtections) listTagProtections(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.TagProtections().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	out := make([]tagProtectionDTO, 0, len(list))
	for _, v := range list {
		out = append(out, toTagProtection(v))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getTagProtection answers GET R/tag_protections/{id}.
func (s tagProtections) getTagProtection(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	v, err := s.repos.TagProtections().Get(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toTagProtection(v))
	return nil
}

// createTagProtection answers POST R/tag_protections with the rule (201).
func (s tagProtections) createTagProtection(q *request) error {
	var b tagProtectionBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.repos.TagProtections().Create(q.r.Context(), q.repo, b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toTagProtection(v))
	return nil
}

// editTagProtection answers PATCH R/tag_protections/{id}: only the fields
// given change.
func (s tagProtections) editTagProtection(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	var b tagProtectionBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.repos.TagProtections().Edit(q.r.Context(), q.repo, id, b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toTagProtection(v))
	return nil
}

// deleteTagProtection answers DELETE R/tag_protections/{id} (204).
func (s tagProtections) deleteTagProtection(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.repos.TagProtections().Delete(q.r.Context(), q.repo, id))
}

// tagProtectionBody is Gitea's CreateTagProtectionOption and
// EditTagProtectionOption: an absent (or null) list leaves an edited rule's
// allowlist as it is, an empty one empties it.
type tagProtectionBody struct {
	NamePattern        *string  `json:"name_pattern"`
	WhitelistUsernames []string `json:"whitelist_usernames"`
	WhitelistTeams     []string `json:"whitelist_teams"`
}

func (b tagProtectionBody) input() repos.TagProtectionInput {
	return repos.TagProtectionInput{NamePattern: b.NamePattern,
		Users: b.WhitelistUsernames, UsersSet: b.WhitelistUsernames != nil,
		Teams: b.WhitelistTeams, TeamsSet: b.WhitelistTeams != nil}
}

// tagProtectionDTO is Gitea's TagProtection.
type tagProtectionDTO struct {
	ID                 int64     `json:"id"`
	NamePattern        string    `json:"name_pattern"`
	WhitelistUsernames []string  `json:"whitelist_usernames"`
	WhitelistTeams     []string  `json:"whitelist_teams"`
	Created            time.Time `json:"created_at"`
	Updated            time.Time `json:"updated_at"`
}

func toTagProtection(v repos.TagProtectionView) tagProtectionDTO {
	return tagProtectionDTO{ID: v.Rule.ID, NamePattern: v.Rule.NamePattern, WhitelistUsernames: v.Users,
		WhitelistTeams: v.Teams, Created: v.Rule.Created.UTC(), Updated: v.Rule.Updated.UTC()}
}
