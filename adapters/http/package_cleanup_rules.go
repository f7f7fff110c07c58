package http

import (
	"net/http"
	"time"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
)

// packageCleanupRules serves the package cleanup rules of the signed-in
// user and of an organisation. Gitea 1.27 keeps them in its web settings
// only (user and organisation settings → packages); these rows serve them
// over the API, with the access of the owner's package write (PkgWrite:
// the user, the organisation's owners and its members whose team writes
// packages, site admins).
type packageCleanupRules struct{ *kernel }

// packageCleanupRuleRoutes are the rows of packageCleanupRules.
func (s *kernel) packageCleanupRuleRoutes() []route {
	h := packageCleanupRules{s}
	const (
		user = "/user/packages/cleanup_rules"
		org  = "/orgs/{org}/packages/cleanup_rules"
		one  = "/{id}"
	)
	return []route{
		{"GET", user, scopes(catPackage), "T,PkgWrite", h.list(myPackageOwner)},
		{"POST", user, scopes(catPackage), "T,PkgWrite", h.create(myPackageOwner)},
		{"GET", user + one, scopes(catPackage), "T,PkgWrite", h.get(myPackageOwner)},
		{"PATCH", user + one, scopes(catPackage), "T,PkgWrite", h.edit(myPackageOwner)},
		{"DELETE", user + one, scopes(catPackage), "T,PkgWrite", h.delete(myPackageOwner)},

		{"GET", org, scopes(catPackage), "T,PkgWrite", h.list(orgPackageOwner)},
		{"POST", org, scopes(catPackage), "T,PkgWrite", h.create(orgPackageOwner)},
		{"GET", org + one, scopes(catPackage), "T,PkgWrite", h.get(orgPackageOwner)},
		{"PATCH", org + one, scopes(catPackage), "T,PkgWrite", h.edit(orgPackageOwner)},
		{"DELETE", org + one, scopes(catPackage), "T,PkgWrite", h.delete(orgPackageOwner)},
	}
}

// The owners the paths name: the caller, the organisation.
func myPackageOwner(q *request) *user.User  { return q.caller.User }
func orgPackageOwner(q *request) *user.User { return &q.org.Org.User }

// packageCleanupRuleDTO is a cleanup rule, with the fields of Gitea's
// settings form.
type packageCleanupRuleDTO struct {
	ID            int64     `json:"id"`
	Enabled       bool      `json:"enabled"`
	Type          string    `json:"type"`
	KeepCount     int       `json:"keep_count"`
	KeepPattern   string    `json:"keep_pattern"`
	RemoveDays    int       `json:"remove_days"`
	RemovePattern string    `json:"remove_pattern"`
	MatchFullName bool      `json:"match_full_name"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// packageCleanupRuleOption is the body of the create and edit rows; a
// field left out is unchanged (or its zero value on creation).
type packageCleanupRuleOption struct {
	Type          *string `json:"type"`
	Enabled       *bool   `json:"enabled"`
	KeepCount     *int    `json:"keep_count"`
	KeepPattern   *string `json:"keep_pattern"`
	RemoveDays    *int    `json:"remove_days"`
	RemovePattern *string `json:"remove_pattern"`
	MatchFullName *bool   `json:"match_full_name"`
}

func (o packageCleanupRuleOption) input() apppkgs.CleanupRuleInput {
	return apppkgs.CleanupRuleInput{Type: o.Type, Enabled: o.Enabled, KeepCount: o.KeepCount,
		KeepPattern: o.KeepPattern, RemoveDays: o.RemoveDays, RemovePattern: o.RemovePattern,
		MatchFullName: o.MatchFullName}
}

func toPackageCleanupRule(r *packages.CleanupRule) packageCleanupRuleDTO {
	return packageCleanupRuleDTO{ID: r.ID, Enabled: r.Enabled, Type: string(r.Type), KeepCount: r.KeepCount,
		KeepPattern: r.KeepPattern, RemoveDays: r.RemoveDays, RemovePattern: r.RemovePattern,
		MatchFullName: r.MatchFullName, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// list answers GET …/packages/cleanup_rules: one page by type.
func (s packageCleanupRules) list(owner func(*request) *user.User) handler {
	return func(q *request) error {
		opts, err := s.listOptions(q.r)
		if err != nil {
			return err
		}
		list, total, err := s.packages.CleanupRules().List(q.r.Context(), owner(q), opts)
		if err != nil {
			return err
		}
		out := make([]packageCleanupRuleDTO, 0, len(list))
		for _, r := range list {
			out = append(out, toPackageCleanupRule(r))
		}
		s.setPaging(q.w, q.r, opts, total)
		q.json(http.StatusOK, out)
		return nil
	}
}

// create answers POST …/packages/cleanup_rules with 201 and the rule.
func (s packageCleanupRules) create(owner func(*request) *user.User) handler {
	return func(q *request) error {
		var body packageCleanupRuleOption
		if err := decodeJSON(q.r, &body); err != nil {
			return err
		}
		r, err := s.packages.CleanupRules().Create(q.r.Context(), owner(q), body.input())
		if err != nil {
			return err
		}
		q.json(http.StatusCreated, toPackageCleanupRule(r))
		return nil
	}
}

// get answers GET …/packages/cleanup_rules/{id}.
func (s packageCleanupRules) get(owner func(*request) *user.User) handler {
	return func(q *request) error {
		id, err := pathID(q, "id")
		if err != nil {
			return err
		}
		r, err := s.packages.CleanupRules().Get(q.r.Context(), owner(q), id)
		if err != nil {
			return err
		}
		q.json(http.StatusOK, toPackageCleanupRule(r))
		return nil
	}
}

// edit answers PATCH …/packages/cleanup_rules/{id} with the rule.
func (s packageCleanupRules) edit(owner func(*request) *user.User) handler {
	return func(q *request) error {
		id, err := pathID(q, "id")
		if err != nil {
			return err
		}
		var body packageCleanupRuleOption
		if err := decodeJSON(q.r, &body); err != nil {
			return err
		}
		r, err := s.packages.CleanupRules().Edit(q.r.Context(), owner(q), id, body.input())
		if err != nil {
			return err
		}
		q.json(http.StatusOK, toPackageCleanupRule(r))
		return nil
	}
}

// delete answers DELETE …/packages/cleanup_rules/{id} with 204.
func (s packageCleanupRules) delete(owner func(*request) *user.User) handler {
	return func(q *request) error {
		id, err := pathID(q, "id")
		if err != nil {
			return err
		}
		if err := s.packages.CleanupRules().Delete(q.r.Context(), owner(q), id); err != nil {
			return err
		}
		q.w.WriteHeader(http.StatusNoContent)
		return nil
	}
}
