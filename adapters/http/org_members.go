package http

import (
	"net/http"
	"net/url"
)

// orgMembers serves an organisation's members and public members
// (catalogue 4.8).
type orgMembers struct{ *kernel }

// orgMemberRoutes are the rows of orgMembers.
func (s *kernel) orgMemberRoutes() []route {
	h := orgMembers{s}
	return []route{
		{"GET", "/orgs/{org}/members", scopes(catOrg), "T", h.listOrgMembers},
		{"GET", "/orgs/{org}/members/{username}", scopes(catOrg), "T", h.checkOrgMember},
		{"DELETE", "/orgs/{org}/members/{username}", scopes(catOrg), "T,OO", h.removeOrgMember},
		{"GET", "/orgs/{org}/public_members", scopes(catOrg), "-", h.listOrgPublicMembers},
		{"GET", "/orgs/{org}/public_members/{username}", scopes(catOrg), "-", h.checkOrgPublicMember},
		{"PUT", "/orgs/{org}/public_members/{username}", scopes(catOrg), "T,OM", h.publicizeOrgMember},
		{"DELETE", "/orgs/{org}/public_members/{username}", scopes(catOrg), "T,OM", h.concealOrgMember},
	}
}

// listOrgMembers answers GET /orgs/{org}/members: all members to members
// and site admins, the public ones to other callers.
func (s orgMembers) listOrgMembers(q *request) error { return s.listMembers(q, false) }

// listOrgPublicMembers answers GET /orgs/{org}/public_members.
func (s orgMembers) listOrgPublicMembers(q *request) error { return s.listMembers(q, true) }

func (s orgMembers) listMembers(q *request, publicOnly bool) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.Members().List(q.r.Context(), q.org, publicOnly, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// checkOrgMember answers GET /orgs/{org}/members/{username}: 204 or 404 to
// members (and site admins); other callers are sent to the public
// membership check, as Gitea does.
func (s orgMembers) checkOrgMember(q *request) error {
	if !q.org.CanSeeAllMembers() && q.caller.UserID() != q.subject.ID {
		http.Redirect(q.w, q.r, s.baseURL+apiPrefix+"/orgs/"+url.PathEscape(q.org.Org.Name)+"/public_members/"+
			url.PathEscape(q.subject.Name), http.StatusFound)
		return nil
	}
	return s.answerMembership(q, false)
}

// checkOrgPublicMember answers GET /orgs/{org}/public_members/{username}.
func (s orgMembers) checkOrgPublicMember(q *request) error { return s.answerMembership(q, true) }

func (s orgMembers) answerMembership(q *request, publicOnly bool) error {
	if err := s.orgs.Members().Check(q.r.Context(), q.org, q.subject, publicOnly); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeOrgMember answers DELETE /orgs/{org}/members/{username}; the last
// owner stays (409).
func (s orgMembers) removeOrgMember(q *request) error {
	if err := s.orgs.Members().Remove(q.r.Context(), q.org, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// publicizeOrgMember answers PUT /orgs/{org}/public_members/{username}.
func (s orgMembers) publicizeOrgMember(q *request) error { return s.setPublicMember(q, true) }

// concealOrgMember answers DELETE /orgs/{org}/public_members/{username}.
func (s orgMembers) concealOrgMember(q *request) error { return s.setPublicMember(q, false) }

func (s orgMembers) setPublicMember(q *request, public bool) error {
	if err := s.orgs.Members().SetPublic(q.r.Context(), q.org, q.subject, public); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
