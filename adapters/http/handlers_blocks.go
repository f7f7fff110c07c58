package http

import (
	"net/http"

	"github.com/depothq/depot/domain/user"
)

// blockRoutes are the block rows of the catalogue: the caller's own blocks
// (4.4, all T) and an organisation's (4.8, T and OO). {username} is the
// blocked (or to be blocked) account, resolved by the middleware (404 when
// absent).
func (s *kernel) blockRoutes() []route {
	return []route{
		{"GET", "/user/blocks", scopes(catUser), "T", s.listMyBlocks},
		{"GET", "/user/blocks/{username}", scopes(catUser), "T", s.checkMyBlock},
		{"PUT", "/user/blocks/{username}", scopes(catUser), "T", s.blockAsMe},
		{"DELETE", "/user/blocks/{username}", scopes(catUser), "T", s.unblockAsMe},

		{"GET", "/orgs/{org}/blocks", scopes(catOrg), "T,OO", s.listOrgBlocks},
		{"GET", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", s.checkOrgBlock},
		{"PUT", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", s.blockAsOrg},
		{"DELETE", "/orgs/{org}/blocks/{username}", scopes(catOrg), "T,OO", s.unblockAsOrg},
	}
}

// orgBlocker is the path's organisation as the blocking account.
func orgBlocker(q *request) *user.User { return &q.org.Org.User }

// listMyBlocks answers GET /user/blocks.
func (s *kernel) listMyBlocks(q *request) error { return s.listBlocks(q, q.caller.User) }

// listOrgBlocks answers GET /orgs/{org}/blocks.
func (s *kernel) listOrgBlocks(q *request) error { return s.listBlocks(q, orgBlocker(q)) }

func (s *kernel) listBlocks(q *request, blocker *user.User) error {
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
func (s *kernel) checkMyBlock(q *request) error {
	return noContent(q, s.users.Blocks().Check(q.r.Context(), q.caller.User, q.subject))
}

// checkOrgBlock answers GET /orgs/{org}/blocks/{username}.
func (s *kernel) checkOrgBlock(q *request) error {
	return noContent(q, s.users.Blocks().Check(q.r.Context(), orgBlocker(q), q.subject))
}

// blockAsMe answers PUT /user/blocks/{username}?note=….
func (s *kernel) blockAsMe(q *request) error {
	return noContent(q, s.users.Blocks().Block(q.r.Context(), q.caller, q.caller.User, q.subject, q.r.URL.Query().Get("note")))
}

// blockAsOrg answers PUT /orgs/{org}/blocks/{username}?note=….
func (s *kernel) blockAsOrg(q *request) error {
	return noContent(q, s.users.Blocks().Block(q.r.Context(), q.caller, orgBlocker(q), q.subject, q.r.URL.Query().Get("note")))
}

// unblockAsMe answers DELETE /user/blocks/{username}.
func (s *kernel) unblockAsMe(q *request) error {
	return noContent(q, s.users.Blocks().Unblock(q.r.Context(), q.caller, q.caller.User, q.subject))
}

// unblockAsOrg answers DELETE /orgs/{org}/blocks/{username}.
func (s *kernel) unblockAsOrg(q *request) error {
	return noContent(q, s.users.Blocks().Unblock(q.r.Context(), q.caller, orgBlocker(q), q.subject))
}
