package http

import (
	"net/http"

	"github.com/depothq/depot/domain/user"
)

// blocks serves blocks: the caller's own (catalogue 4.4) and an
// organisation's (4.8).
type blocks struct{ *kernel }

// blockRoutes are the rows of blocks: the caller's own blocks (all T) and an
// organisation's (T and OO). {username} is the blocked (or to be blocked)
// account, resolved by the middleware (404 when absent).
func (s *kernel) blockRoutes() []route {
	h := blocks{s}
	return []route{
		{"GET", "/user/blocks", scopes(catUser), "T", h.listMyBlocks},
		{"GET", "/user/blocks/{username}", scopes(catUser), "T", h.checkMyBlock},
		{"PUT", "/user/blocks/{username}", scopes(catUser), "T", h.blockAsMe},
		{"DELETE", "/user/blocks/{username}", scopes(catUser), "T", h.unblockAsMe},

		{"GET", "/orgs/{org}/blocks", scopes(catOrg), "T,OO", h.listOrgBlocks},
		{"GET", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", h.checkOrgBlock},
		{"PUT", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", h.blockAsOrg},
		{"DELETE", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", h.unblockAsOrg},
	}
}

// orgBlocker is the path's organisation as the blocking account.
func orgBlocker(q *request) *user.User { return &q.org.Org.User }

// listMyBlocks answers GET /user/blocks.
func (s blocks) listMyBlocks(q *request) error { return s.listBlocks(q, q.caller.User) }

// listOrgBlocks answers GET /orgs/{org}/blocks.
func (s blocks) listOrgBlocks(q *request) error { return s.listBlocks(q, orgBlocker(q)) }

func (s blocks) listBlocks(q *request, blocker *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Blocks().List(q.r.Context(), blocker, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// checkMyBlock answers GET /user/blocks/{username}: 204 when blocked, else 404.
func (s blocks) checkMyBlock(q *request) error {
	return noContent(q, s.users.Blocks().Check(q.r.Context(), q.caller.User, q.subject))
}

// checkOrgBlock answers GET /orgs/{org}/blocks/{username}.
func (s blocks) checkOrgBlock(q *request) error {
	return noContent(q, s.users.Blocks().Check(q.r.Context(), orgBlocker(q), q.subject))
}

// blockAsMe answers PUT /user/blocks/{username}?note=….
func (s blocks) blockAsMe(q *request) error {
	return noContent(q, s.users.Blocks().Block(q.r.Context(), q.caller, q.caller.User, q.subject, q.r.URL.Query().Get("note")))
}

// blockAsOrg answers PUT /orgs/{org}/blocks/{username}?note=….
func (s blocks) blockAsOrg(q *request) error {
	return noContent(q, s.users.Blocks().Block(q.r.Context(), q.caller, orgBlocker(q), q.subject, q.r.URL.Query().Get("note")))
}

// unblockAsMe answers DELETE /user/blocks/{username}.
func (s blocks) unblockAsMe(q *request) error {
	return noContent(q, s.users.Blocks().Unblock(q.r.Context(), q.caller, q.caller.User, q.subject))
}

// unblockAsOrg answers DELETE /orgs/{org}/blocks/{username}.
func (s blocks) unblockAsOrg(q *request) error {
	return noContent(q, s.users.Blocks().Unblock(q.r.Context(), q.caller, orgBlocker(q), q.subject))
}
