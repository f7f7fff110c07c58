package orgs

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// FuzzBuildTeam fuzzes a team's create options: refused with a 422 on one
// of the body's fields, or a team that validates, is never an owners team
// by another name, and whose mode is no more than its units grant.
func FuzzBuildTeam(f *testing.F) {
	f.Add("devs", "d", "write", "repo.code,repo.issues", "repo.code=read,repo.wiki=admin")
	f.Add("Owners", "", "owner", "", "")
	f.Add("x", "", "", "", "repo.code=owner")
	f.Add("new", "", "read", "repo.nothing", "")
	f.Add("a b", "", "admin", "", "=")
	f.Fuzz(func(t *testing.T, name, desc, perm, units, unitsMap string) {
		in := TeamInput{Name: name, Description: desc, Permission: perm}
		if units != "" {
			in.Units = strings.Split(units, ",")
		}
		if unitsMap != "" {
			in.UnitsMap = map[string]string{}
			for _, kv := range strings.Split(unitsMap, ",") {
				k, v, _ := strings.Cut(kv, "=")
				in.UnitsMap[k] = v
			}
		}
		team, err := buildTeam(1, in)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || len(e.Fields) != 1 ||
				!slices.Contains([]string{"name", "description", "permission", "units", "units_map"}, e.Fields[0]) {
				t.Fatalf("buildTeam refused with %v (%T)", err, err)
			}
			return
		}
		if err := team.Validate(); err != nil {
			t.Fatalf("built team does not validate: %v", err)
		}
		if team.Mode == permission.ModeOwner || len(team.Units) == 0 {
			t.Fatalf("team %+v", team)
		}
		for u, m := range team.Units {
			if _, err := permission.ParseUnit(string(u)); err != nil || m > permission.ModeAdmin {
				t.Fatalf("unit %q at %v", u, m)
			}
			if len(in.UnitsMap) > 0 && team.Mode < permission.ModeAdmin && m < team.Mode {
				t.Fatalf("team mode %v above its unit %q at %v", team.Mode, u, m)
			}
		}
	})
}
