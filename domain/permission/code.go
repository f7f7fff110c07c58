package permission

import (
	"fmt"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// CodeKind names an access code of the route catalogue.
type CodeKind string

// The access codes. Each one's failure is described on Code.Check.
const (
	CodeT   CodeKind = "T"
	CodeRR  CodeKind = "RR"
	CodeAR  CodeKind = "AR"
	CodeRW  CodeKind = "RW"
	CodeBW  CodeKind = "BW"
	CodeRA  CodeKind = "RA"
	CodeRO  CodeKind = "RO"
	CodeNA  CodeKind = "NA"
	CodeSA  CodeKind = "SA"
	CodeSOA CodeKind = "SOA"
	CodeOO  CodeKind = "OO"
	CodeOM  CodeKind = "OM"
	CodeTM  CodeKind = "TM"
	CodeWH  CodeKind = "WH"
	CodeST  CodeKind = "ST"

	// The feature codes: rules the catalogue states in prose, each a switch
	// of the site or the repository (feature_codes.go).
	CodeIssuesOrPulls CodeKind = "IssuesOrPulls"
	CodeIssuesEnabled CodeKind = "IssuesEnabled"
	CodeAttachments   CodeKind = "Attachments"
	CodeGitHooks      CodeKind = "GitHooks"
	CodeNotBlocked    CodeKind = "NotBlocked"
	CodePulls         CodeKind = "Pulls"
	CodeWiki          CodeKind = "Wiki"
	// CodePkgRead and CodePkgWrite are the package routes' rules: the
	// caller's access to the packages of the path's owner (PackageMode).
	CodePkgRead  CodeKind = "PkgRead"
	CodePkgWrite CodeKind = "PkgWrite"
)

// Messages of the access codes, as Gitea's req* checks in
// routers/api/v1/api.go word them (spec section 7).
const (
	msgTokenRequired  = "token is required"
	msgRepoReader     = "user should have specific read permission or be a repo admin or a site admin"
	msgAnyRepoReader  = "user should have any permission to read repository or permissions of site admin"
	msgRepoWriter     = "user should have a permission to write to a repo"
	msgBranchWriter   = "user should have a permission to write to this branch"
	msgRepoAdmin      = "user should be an owner or a collaborator with admin write of a repository"
	msgRepoOwner      = "user should be the owner of the repo"
	msgSiteAdmin      = "user should be the site admin"
	msgSelfOrAdmin    = "doer should be the site admin or be same as the contextUser"
	msgOrgOwner       = "Must be an organization owner"
	msgOrgMember      = "Must be an organization member"
	msgTeamMember     = "Must be a team member"
	msgWebhooksOff    = "webhooks disabled by administrator"
	msgStarsOff       = "stars disabled by administrator"
	msgPackageAccess  = "user should have specific permission or be a site admin"
	archivedMsgFormat = "%s is archived"
)

// Code is one access code, with the units it names for RR and RW.
type Code struct {
	Kind CodeKind
	// Units are the units of RR(u) and RW(u); the check passes on any of them.
	Units []Unit
}

// String writes the code as the catalogue does: "NA", "RR(code)", "RW(issues,pulls)".
func (c Code) String() string {
	if len(c.Units) == 0 {
		return string(c.Kind)
	}
	names := make([]string, len(c.Units))
	for i, u := range c.Units {
		names[i] = u.Short()
	}
	return string(c.Kind) + "(" + strings.Join(names, ",") + ")"
}

// needsUnits reports whether a code of kind k takes units.
func needsUnits(k CodeKind) bool { return k == CodeRR || k == CodeRW }

// needsRepo reports whether a code of kind k is about a repository.
func needsRepo(k CodeKind) bool {
	switch k {
	case CodeRR, CodeAR, CodeRW, CodeBW, CodeRA, CodeRO, CodeNA, CodeIssuesOrPulls, CodeIssuesEnabled,
		CodeNotBlocked, CodePulls, CodeWiki:
		return true
	}
	return false
}

// known reports whether k is one of the access codes.
func known(k CodeKind) bool {
	switch k {
	case CodeT, CodeRR, CodeAR, CodeRW, CodeBW, CodeRA, CodeRO, CodeNA,
		CodeSA, CodeSOA, CodeOO, CodeOM, CodeTM, CodeWH, CodeST,
		CodeIssuesOrPulls, CodeIssuesEnabled, CodeAttachments, CodeGitHooks, CodeNotBlocked, CodePulls, CodeWiki,
		CodePkgRead, CodePkgWrite:
		return true
	}
	return false
}

// ParseCode reads one access code as the route table declares it: "T",
// "NA", "RR(code)", "RW(releases)". RR and RW need at least one unit; units
// are separated by commas or " and ", so the catalogue's
// "RW(issues and pull requests)" reads as RW on issues or pulls.
func ParseCode(s string) (Code, error) {
	s = strings.TrimSpace(s)
	name, args, hasArgs := strings.Cut(s, "(")
	c := Code{Kind: CodeKind(strings.TrimSpace(name))}
	if !known(c.Kind) {
		return Code{}, fmt.Errorf("permission: unknown access code %q", s)
	}
	if hasArgs {
		inner, ok := strings.CutSuffix(strings.TrimSpace(args), ")")
		if !ok || strings.ContainsAny(inner, "()") {
			return Code{}, fmt.Errorf("permission: malformed access code %q", s)
		}
		for _, part := range strings.Split(strings.ReplaceAll(inner, " and ", ","), ",") {
			u, err := ParseUnit(part)
			if err != nil {
				return Code{}, fmt.Errorf("permission: access code %q: %w", s, err)
			}
			c.Units = append(c.Units, u)
		}
	}
	if needsUnits(c.Kind) != (len(c.Units) > 0) {
		return Code{}, fmt.Errorf("permission: access code %q: %s takes units only for RR and RW, and they need one", s, c.Kind)
	}
	return c, nil
}

// ParseCodes reads a comma-separated list of codes as the catalogue's Access
// column writes it: "T, RR(code), BW, NA". Commas inside parentheses
// separate units, not codes. An empty string or "-" is no codes.
func ParseCodes(s string) ([]Code, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return nil, nil
	}
	var out []Code
	depth, start := 0, 0
	for i, r := range s + "," {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth != 0 {
				continue
			}
			c, err := ParseCode(s[start:i])
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			start = i + 1
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("permission: unbalanced parentheses in %q", s)
	}
	return out, nil
}

// Facts are what the access codes of one request are checked against.
type Facts struct {
	Actor Actor
	// Perm is the actor's permission in Repo (from Compute).
	Perm Permission
	// Repo is the route's repository; nil on routes without one.
	Repo *Repo

	// IsOrgOwner and IsOrgMember relate the actor to the route's organisation
	// (the team's organisation on team routes).
	IsOrgOwner  bool
	IsOrgMember bool
	// IsTeamMember relates the actor to the route's team.
	IsTeamMember bool
	// TeamRoute is set on routes addressed by team (/teams/{id}), where OO and
	// OM answer 404 instead of 403 so as not to reveal the team.
	TeamRoute bool

	// SubjectUserID is the user named in the path, for SOA.
	SubjectUserID int64
	// BranchWritable is whether the actor may write to the body's target
	// branch (branch protection included), for BW.
	BranchWritable bool

	// WebhooksEnabled and StarsEnabled are the site's switches, for WH and ST.
	WebhooksEnabled bool
	StarsEnabled    bool
	// AttachmentsEnabled is the site's attachment switch, for Attachments.
	AttachmentsEnabled bool
	// GitHooksEnabled is the site's Git hook switch and AllowGitHook the
	// actor's account flag, for GitHooks.
	GitHooksEnabled bool
	AllowGitHook    bool
	// BlockedByOwner is whether the repository's owner blocked the actor,
	// for NotBlocked; gathered only for rows that carry that code.
	BlockedByOwner bool
	// PackageMode is the actor's access to the packages of the path's
	// owner (PackageAccess), for PkgRead and PkgWrite.
	PackageMode AccessMode
}

// Check applies the code to the facts: nil when it passes, else a
// categorised error with Gitea's message. A site admin passes every code but
// T (which any signed-in caller passes), NA, WH, ST, IssuesOrPulls,
// IssuesEnabled on a repository without the issues unit, Attachments, and
// GitHooks while the site disables Git hooks.
//
//   - T: 401 "token is required" unless signed in (a workflow run is).
//   - RR(u): 403 unless the actor reads one of u, administers the repo, or is a site admin.
//   - AR: 403 unless the actor reads any unit, or is a site admin.
//   - RW(u): 403 unless the actor writes one of u, administers the repo, or is a site admin.
//   - BW: 403 unless BranchWritable, or a site admin.
//   - RA: 403 unless the actor administers the repo (owner or admin collaborator), or is a site admin.
//   - RO: 403 unless the actor owns the repo, or is a site admin.
//   - NA: 423 "<owner>/<name> is archived" when the repo is archived.
//   - SA: 403 "user should be the site admin". Gitea's API /admin routes use
//     this check (reqSiteAdmin); "You have no permission to request for
//     this." is its web-only admin guard, see AdminOnlyError.
//   - SOA: 403 unless the actor is the path's user, or a site admin.
//   - OO, OM: 403 unless an owner (OO) or member (OM) of the organisation, or
//     a site admin; 404 instead on team routes.
//   - TM: unless a team member, organisation owner or site admin: 403 for
//     members of the organisation, 404 for everyone else.
//   - WH, ST: 403 when webhooks or stars are switched off on the site.
//   - PkgRead, PkgWrite: 403 unless PackageMode reaches read or write, or a site admin.
//   - IssuesOrPulls, IssuesEnabled, Attachments: 404 while the feature is
//     off or unreadable; GitHooks: 403; NotBlocked: 403 "user is blocked"
//     when the repository's owner blocked the actor (see feature_codes.go).
//
// A code that needs a repository, checked without one, or an RR/RW without
// units, is a route-table mistake and yields a plain (uncategorised) error.
func (c Code) Check(f Facts) error {
	if needsRepo(c.Kind) && f.Repo == nil {
		return fmt.Errorf("permission: access code %s checked on a route without a repository", c)
	}
	if needsUnits(c.Kind) && len(c.Units) == 0 {
		return fmt.Errorf("permission: access code %s names no unit", c.Kind)
	}
	admin := f.Actor.IsAdmin()
	switch c.Kind {
	case CodeT:
		if !f.Actor.SignedIn() {
			return errs.Unauthenticated(msgTokenRequired)
		}
	case CodeRR:
		if !f.Perm.anyUnit(c.Units, ModeRead) && !f.Perm.IsAdmin() && !admin {
			return errs.Forbidden(msgRepoReader)
		}
	case CodeAR:
		if !f.Perm.HasAnyAccess() && !admin {
			return errs.Forbidden(msgAnyRepoReader)
		}
	case CodeRW:
		if !f.Perm.anyUnit(c.Units, ModeWrite) && !f.Perm.IsAdmin() && !admin {
			return errs.Forbidden(msgRepoWriter)
		}
	case CodeBW:
		if !f.BranchWritable && !admin {
			return errs.Forbidden(msgBranchWriter)
		}
	case CodeRA:
		if !f.Perm.IsAdmin() && !admin {
			return errs.Forbidden(msgRepoAdmin)
		}
	case CodeRO:
		if !f.Perm.IsOwner() && !admin {
			return errs.Forbidden(msgRepoOwner)
		}
	case CodeNA:
		if f.Repo.Archived {
			return ArchivedError(*f.Repo)
		}
	case CodeSA:
		if !admin {
			return errs.Forbidden(msgSiteAdmin)
		}
	case CodeSOA:
		self := f.Actor.Kind == ActorUser && f.Actor.UserID != 0 && f.Actor.UserID == f.SubjectUserID
		if !self && !admin {
			return errs.Forbidden(msgSelfOrAdmin)
		}
	case CodeOO:
		if !f.IsOrgOwner && !admin {
			return orgDenied(f.TeamRoute, msgOrgOwner)
		}
	case CodeOM:
		if !f.IsOrgMember && !f.IsOrgOwner && !admin {
			return orgDenied(f.TeamRoute, msgOrgMember)
		}
	case CodeTM:
		if !f.IsTeamMember && !f.IsOrgOwner && !admin {
			if f.IsOrgMember {
				return errs.Forbidden(msgTeamMember)
			}
			return errs.NotFound(msgNotFound)
		}
	case CodeWH:
		if !f.WebhooksEnabled {
			return errs.Forbidden(msgWebhooksOff)
		}
	case CodeST:
		if !f.StarsEnabled {
			return errs.Forbidden(msgStarsOff)
		}
	case CodeIssuesOrPulls:
		return CheckIssueTracker(f)
	case CodeIssuesEnabled:
		return checkIssuesEnabled(f)
	case CodeAttachments:
		return checkAttachments(f)
	case CodeGitHooks:
		return checkGitHooks(f)
	case CodeNotBlocked:
		return checkNotBlocked(f)
	case CodePulls:
		return checkPullsEnabled(f)
	case CodeWiki:
		return checkWikiEnabled(f)
	case CodePkgRead:
		if f.PackageMode < ModeRead && !admin {
			return errs.Forbidden(msgPackageAccess)
		}
	case CodePkgWrite:
		if f.PackageMode < ModeWrite && !admin {
			return errs.Forbidden(msgPackageAccess)
		}
	default:
		return fmt.Errorf("permission: unknown access code %q", string(c.Kind))
	}
	return nil
}

// anyUnit reports whether p grants at least m on one of units.
func (p Permission) anyUnit(units []Unit, m AccessMode) bool {
	for _, u := range units {
		if p.UnitMode(u) >= m {
			return true
		}
	}
	return false
}

// orgDenied is the refusal of OO and OM: 403 on organisation routes, 404 on
// team routes.
func orgDenied(teamRoute bool, msg string) error {
	if teamRoute {
		return errs.NotFound(msgNotFound)
	}
	return errs.Forbidden(msg)
}

// ArchivedError is the 423 of a write to an archived repository, worded as
// the spec and the repositories issue ask: "alice/demo is archived". (Gitea
// prints its internal log string, "<Repository 7:alice/demo>", instead.)
func ArchivedError(r Repo) error {
	return errs.Locked(fmt.Sprintf(archivedMsgFormat, r.FullName))
}

// CheckAll applies codes in declaration order and returns the first failure.
func CheckAll(codes []Code, f Facts) error {
	for _, c := range codes {
		if err := c.Check(f); err != nil {
			return err
		}
	}
	return nil
}
