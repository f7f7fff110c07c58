package ports

import (
	"context"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/user"
)

// OrgSearch filters an organisation listing.
type OrgSearch struct {
	// Keyword matches the name or full name, case-insensitively; empty matches all.
	Keyword string
	// Visibilities restricts to these visibilities; empty means all.
	Visibilities []user.Visibility
	// IncludeMemberID also returns the organisations this user belongs to,
	// whatever the visibility filter (members see their private organisations).
	IncludeMemberID int64
	// MemberID restricts to the organisations this user belongs to.
	MemberID int64
	// PublicMembershipOnly, with MemberID, keeps only the memberships the
	// user shows publicly.
	PublicMembershipOnly bool
	// ViewerMemberID further restricts to the organisations this user
	// belongs to (a restricted viewer sees no others).
	ViewerMemberID int64
	ListOptions
}

// OrgStore persists organisations (account rows of kind
// user.KindOrganization plus their own settings), their teams and
// memberships. Missing rows are errs.ErrNotFound; a taken name is
// errs.ErrConflict. A user is a member of an organisation while in one of
// its teams; the owners are the members of its Owners team.
type OrgStore interface {
	// Create inserts o, its Owners team, and creatorID as its only owner;
	// it sets o.ID. Run it inside the caller's transaction.
	Create(ctx context.Context, o *org.Organization, creatorID int64) error
	// Get finds an organisation by id; an individual's id is not found.
	Get(ctx context.Context, id int64) (*org.Organization, error)
	// GetByName finds an organisation by name, case-insensitively.
	GetByName(ctx context.Context, name string) (*org.Organization, error)
	// Update writes the profile and settings of o.
	Update(ctx context.Context, o *org.Organization) error
	// Delete removes the organisation with its teams and memberships; it is
	// errs.ErrConflict while the organisation owns repositories.
	Delete(ctx context.Context, id int64) error
	// Search returns one page of organisations ordered by name, and the total.
	Search(ctx context.Context, q OrgSearch) ([]*org.Organization, int64, error)

	// Membership returns userID's ties to the organisation in one query;
	// the zero value when not a member.
	Membership(ctx context.Context, orgID, userID int64) (org.Membership, error)
	// Members returns one page of the members ordered by name (only those
	// who show their membership with publicOnly), and the total.
	Members(ctx context.Context, orgID int64, publicOnly bool, opts ListOptions) ([]*user.User, int64, error)
	// SetPublic shows or hides userID's membership; errs.ErrNotFound when
	// not a member.
	SetPublic(ctx context.Context, orgID, userID int64, public bool) error
	// RemoveMember takes userID out of every team of the organisation;
	// org.ErrLastOwner when userID is its last owner, errs.ErrNotFound when
	// no member.
	RemoveMember(ctx context.Context, orgID, userID int64) error

	// OwnersTeam returns the organisation's Owners team with its member count.
	OwnersTeam(ctx context.Context, orgID int64) (*org.Team, error)
	// TeamsOf returns the teams of the organisation userID belongs to.
	TeamsOf(ctx context.Context, orgID, userID int64) ([]*org.Team, error)
	// CreateTeam inserts t with its units and sets t.ID; a name taken in the
	// organisation is errs.ErrConflict.
	CreateTeam(ctx context.Context, t *org.Team) error
	// AddTeamMember puts userID in the team (and so in its organisation);
	// adding a member twice is no error.
	AddTeamMember(ctx context.Context, teamID, userID int64) error
	// GetTeam finds a team by id with its units and member count.
	GetTeam(ctx context.Context, id int64) (*org.Team, error)
	// IsTeamMember reports whether userID is in the team.
	IsTeamMember(ctx context.Context, teamID, userID int64) (bool, error)
	// RemoveTeamMember takes userID out of the team, and out of the
	// organisation when it was the user's last team; org.ErrLastOwner for
	// the last member of the Owners team, errs.ErrNotFound when no member.
	RemoveTeamMember(ctx context.Context, teamID, userID int64) error
	// GetMany finds the organisations with these ids in one query; absent
	// ids are skipped.
	GetMany(ctx context.Context, ids []int64) ([]*org.Organization, error)
	// ListTeams returns one page of the organisation's teams ordered by name
	// (matching keyword in the name, or with includeDesc in the description
	// too, when keyword is set), with units and member counts, and the total.
	ListTeams(ctx context.Context, orgID int64, keyword string, includeDesc bool, opts ListOptions) ([]*org.Team, int64, error)
	// TeamsOfUser returns one page of every team userID is in, across
	// organisations, ordered by id, and the total.
	TeamsOfUser(ctx context.Context, userID int64, opts ListOptions) ([]*org.Team, int64, error)
	// GetTeamByName finds a team of the organisation by name, case-insensitively.
	GetTeamByName(ctx context.Context, orgID int64, name string) (*org.Team, error)
	// UpdateTeam writes t's fields and replaces its units.
	UpdateTeam(ctx context.Context, t *org.Team) error
	// DeleteTeam removes the team with its units, members and repositories;
	// members left in no team of the organisation leave it.
	DeleteTeam(ctx context.Context, id int64) error
	// TeamMembers returns one page of the team's members by name, and the total.
	TeamMembers(ctx context.Context, teamID int64, opts ListOptions) ([]*user.User, int64, error)
	// RemoveTeamRepo takes the repository from the team; errs.ErrNotFound
	// when it was not given.
	RemoveTeamRepo(ctx context.Context, teamID, repoID int64) error
	// RepoTeams returns the teams that reach the repository (given it, or
	// including all of its organisation's), by name.
	RepoTeams(ctx context.Context, repoID int64) ([]*org.Team, error)
	// AddTeamRepo gives the team the repository, which must belong to the
	// team's organisation (errs.ErrNotFound otherwise).
	AddTeamRepo(ctx context.Context, teamID, repoID int64) error
}
