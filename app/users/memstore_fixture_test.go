package users_test

import (
	"testing"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// This file holds the one fixture of the package's use-case unit tests:
// the account use cases built on the in-memory store (adapters/memstore)
// and a fixed clock, without SQL, Git or HTTP.

// world is the users use cases on a memory store (usecasekit).
type world struct {
	*usecasekit.World
	svc *users.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{World: usecasekit.New(t)}
	w.svc = users.NewService(w.Stores, w.DB, nil, nil, nil, w.Clock, nil, nil, nil, nil, nil, w.Settings, w.Log)
	return w
}

var admin = usecasekit.Admin

func caller(u *user.User) auth.Caller { return auth.Caller{User: u} }

// org creates an organisation owned by owner, with members in a second team.
func (w *world) org(name string, owner *user.User, members ...*user.User) *org.Organization {
	w.T.Helper()
	o := w.Org(name, owner)
	if len(members) > 0 {
		t := &org.Team{OrgID: o.ID, Name: "crew"}
		w.Must(w.Stores.Orgs.CreateTeam(w.Ctx, t))
		for _, m := range members {
			w.Must(w.Stores.Orgs.AddTeamMember(w.Ctx, t.ID, m.ID))
		}
	}
	return o
}

// blocked lists the names of the accounts blocker blocks.
func (w *world) blocked(blocker *user.User) []string {
	w.T.Helper()
	list, _, err := w.svc.Blocks().List(w.Ctx, blocker, ports.ListOptions{Page: 1, Limit: 50})
	w.Must(err)
	out := []string{}
	for _, u := range list {
		out = append(out, u.Name)
	}
	return out
}
