package http

import (
	"net/http"
)

// teamMembers serves a team's members (catalogue 4.8).
type teamMembers struct{ *kernel }

// teamMemberRoutes are the rows of teamMembers.
func (s *kernel) teamMemberRoutes() []route {
	h := teamMembers{s}
	return []route{
		{"GET", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM", h.getTeamMember},
		{"PUT", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM,OO", h.addTeamMember},
		{"DELETE", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM,OO", h.removeTeamMember},
		{"GET", "/teams/{teamid}/members", scopes(catOrg), "T,TM", h.listTeamMembers},
	}
}

// getTeamMember answers GET /teams/{teamid}/members/{username}: the user
// when in the team, 404 otherwise.
func (s teamMembers) getTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Check(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUser(q.caller, q.subject))
	return nil
}

// addTeamMember answers PUT /teams/{teamid}/members/{username}.
func (s teamMembers) addTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Add(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeTeamMember answers DELETE /teams/{teamid}/members/{username}; the
// Owners team keeps its last member (409).
func (s teamMembers) removeTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Remove(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// listTeamMembers answers GET /teams/{teamid}/members.
func (s teamMembers) listTeamMembers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.TeamMembers().List(q.r.Context(), q.team, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}
