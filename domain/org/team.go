package org

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// OwnersTeamName is the name of the team every organisation is created with;
// its members own the organisation.
const OwnersTeamName = "Owners"

// MaxTeamNameLength and MaxTeamDescriptionLength are Gitea's bindings.
const (
	MaxTeamNameLength        = 255
	MaxTeamDescriptionLength = 255
)

var validTeamName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Team is a group of an organisation's members with one permission on a
// set of the organisation's repositories.
type Team struct {
	ID        int64
	OrgID     int64
	Name      string
	LowerName string
	// Description is free text.
	Description string
	// Mode is the team's overall permission (Gitea's team.AccessMode).
	Mode permission.AccessMode
	// Units is the mode per repository unit; a unit absent is None.
	Units map[permission.Unit]permission.AccessMode
	// IncludesAllRepositories gives the team every repository of the
	// organisation, present and future.
	IncludesAllRepositories bool
	// CanCreateOrgRepo lets members create repositories in the organisation.
	CanCreateOrgRepo bool
	NumMembers       int
	NumRepos         int
}

// IsOwnersTeam reports whether t is the organisation's Owners team.
func (t *Team) IsOwnersTeam() bool { return t.Name == OwnersTeamName }

// NewOwnersTeam is the Owners team of the organisation orgID: owner of
// every repository, present and future, allowed to create repositories.
func NewOwnersTeam(orgID int64) *Team {
	units := make(map[permission.Unit]permission.AccessMode, len(permission.AllUnits()))
	for _, u := range permission.AllUnits() {
		units[u] = permission.ModeOwner
	}
	return &Team{OrgID: orgID, Name: OwnersTeamName, LowerName: strings.ToLower(OwnersTeamName),
		Mode: permission.ModeOwner, Units: units, IncludesAllRepositories: true, CanCreateOrgRepo: true}
}

// ParseMode reads a team permission as the API spells it.
func ParseMode(s string) (permission.AccessMode, bool) {
	for m := permission.ModeNone; m <= permission.ModeOwner; m++ {
		if m.String() == s {
			return m, true
		}
	}
	return permission.ModeNone, false
}

// ValidateTeamName checks a team name: letters, digits, '-', '_' and '.',
// at most MaxTeamNameLength, and not "new" (a route of the web interface).
func ValidateTeamName(field, name string) error {
	switch {
	case name == "":
		return errs.Invalid("Required", field)
	case utf8.RuneCountInString(name) > MaxTeamNameLength:
		return errs.Invalid("MaxSize", field)
	case !validTeamName.MatchString(name):
		return errs.Invalid("AlphaDashDot", field)
	case strings.EqualFold(name, "new"):
		return errs.Invalid("name is reserved", field)
	}
	return nil
}

// Validate checks a team before it is stored. Only the Owners team may have
// the owner mode; other teams are read, write or admin teams (a team of none
// grants its units one by one).
func (t *Team) Validate() error {
	if err := ValidateTeamName("name", t.Name); err != nil {
		return err
	}
	if utf8.RuneCountInString(t.Description) > MaxTeamDescriptionLength {
		return errs.Invalid("MaxSize", "description")
	}
	if t.Mode == permission.ModeOwner && !t.IsOwnersTeam() {
		return errs.Invalid("must be one of read, write, admin", "permission")
	}
	for u, m := range t.Units {
		if _, err := permission.ParseUnit(string(u)); err != nil {
			return errs.Invalid("unknown unit "+string(u), "units_map")
		}
		if m < permission.ModeNone || m > permission.ModeAdmin && !t.IsOwnersTeam() {
			return errs.Invalid("must be one of none, read, write, admin", "units_map")
		}
	}
	return nil
}

// CheckDelete refuses to delete the Owners team.
func (t *Team) CheckDelete() error {
	if t.IsOwnersTeam() {
		return errs.Invalid("the owners team cannot be deleted", "id")
	}
	return nil
}

// CheckRename refuses to rename the Owners team or to take its name.
func (t *Team) CheckRename(newName string) error {
	if t.IsOwnersTeam() != (newName == OwnersTeamName) {
		return errs.Invalid("the owners team cannot be renamed", "name")
	}
	return nil
}

// CheckRemoveMember refuses to remove the last member of the Owners team:
// an organisation always keeps an owner. members is the team's member count
// before the removal.
func (t *Team) CheckRemoveMember(members int) error {
	if t.IsOwnersTeam() && members <= 1 {
		return ErrLastOwner
	}
	return nil
}

// ErrLastOwner is the refusal to remove an organisation's last owner.
var ErrLastOwner = errs.Conflict("the last owner of an organization cannot be removed")
