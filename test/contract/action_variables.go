package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func newActionVariable(scope actions.Scope, name, data string) *actions.Variable {
	return &actions.Variable{Scope: scope, Name: name, Data: data, Description: "about " + name, Created: at(50), Updated: at(51)}
}

func (f *fixture) actionVariable(scope actions.Scope, name, data string) *actions.Variable {
	f.t.Helper()
	v := newActionVariable(scope, name, data)
	if err := f.ActionVariables.Create(f.ctx, v); err != nil {
		f.t.Fatalf("create variable %q: %v", name, err)
	}
	if v.ID == 0 {
		f.t.Fatalf("create variable %q: id not set", name)
	}
	return v
}

func actionVariableNames(list []*actions.Variable) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = v.Name
	}
	return out
}

var actionVariableTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndListByName": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		own, repo := actions.OwnerScope(ann.ID), actions.RepoScope(r.ID)
		b := f.actionVariable(own, "BETA", "two\nlines")
		a := f.actionVariable(own, "ALPHA", "1")
		c := f.actionVariable(own, "CHARLIE", "3")
		ra := f.actionVariable(repo, "ALPHA", "repo") // the same name in another scope

		got, err := f.ActionVariables.Get(f.ctx, own, "BETA")
		is.NoErr(err)
		is.Equal(*got, *b)
		got, err = f.ActionVariables.Get(f.ctx, repo, "ALPHA")
		is.NoErr(err)
		is.Equal(*got, *ra)
		is.Equal(got.Scope, actions.Scope{RepoID: r.ID})
		_, err = f.ActionVariables.Get(f.ctx, own, "beta") // names are stored as given
		isCategory(is, err, errs.ErrNotFound, "variable not found")
		_, err = f.ActionVariables.Get(f.ctx, repo, "BETA")
		isCategory(is, err, errs.ErrNotFound, "variable not found")
		// An account's scope is not its repositories' scope, nor another account's.
		_, err = f.ActionVariables.Get(f.ctx, actions.OwnerScope(f.user("bob").ID), "ALPHA")
		isCategory(is, err, errs.ErrNotFound, "variable not found")

		list, total, err := f.ActionVariables.List(f.ctx, own, firstPage)
		is.NoErr(err)
		is.Equal(actionVariableNames(list), []string{"ALPHA", "BETA", "CHARLIE"})
		is.Equal(total, int64(3))
		is.Equal(*list[0], *a)
		list, total, err = f.ActionVariables.List(f.ctx, own, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(actionVariableNames(list), []string{c.Name})
		is.Equal(total, int64(3))
		list, total, err = f.ActionVariables.List(f.ctx, repo, firstPage)
		is.NoErr(err)
		is.Equal(actionVariableNames(list), []string{"ALPHA"})
		is.Equal(total, int64(1))
		list, total, err = f.ActionVariables.List(f.ctx, actions.RepoScope(f.repo(ann, "empty").ID), firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
	},
	"NamesAreUniquePerScope": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		f.actionVariable(actions.OwnerScope(ann.ID), "TOKEN", "a")
		f.actionVariable(actions.RepoScope(r.ID), "TOKEN", "b")
		err := f.ActionVariables.Create(f.ctx, newActionVariable(actions.OwnerScope(ann.ID), "TOKEN", "c"))
		isCategory(is, err, errs.ErrConflict, "variable name already exists")
		err = f.ActionVariables.Create(f.ctx, newActionVariable(actions.RepoScope(r.ID), "TOKEN", "c"))
		isCategory(is, err, errs.ErrConflict, "variable name already exists")
	},
	"UpdateRenamesAndRewrites": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		own := actions.OwnerScope(ann.ID)
		v := f.actionVariable(own, "OLD", "1")
		f.actionVariable(own, "TAKEN", "2")

		v.Name, v.Data, v.Description, v.Updated = "NEW", "changed", "", at(55)
		is.NoErr(f.ActionVariables.Update(f.ctx, v))
		got, err := f.ActionVariables.Get(f.ctx, own, "NEW")
		is.NoErr(err)
		is.Equal(*got, *v) // created stays, updated moves
		_, err = f.ActionVariables.Get(f.ctx, own, "OLD")
		isCategory(is, err, errs.ErrNotFound, "variable not found")

		clash := *v
		clash.Name = "TAKEN"
		isCategory(is, f.ActionVariables.Update(f.ctx, &clash), errs.ErrConflict, "variable name already exists")
		// Another scope's id is not found.
		other := *v
		other.Scope = actions.OwnerScope(f.user("bob").ID)
		isCategory(is, f.ActionVariables.Update(f.ctx, &other), errs.ErrNotFound, "variable not found")
		got, err = f.ActionVariables.Get(f.ctx, own, "NEW")
		is.NoErr(err)
		is.Equal(*got, *v) // neither refused update wrote
	},
	"DeleteAndMissing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		own, repo := actions.OwnerScope(ann.ID), actions.RepoScope(r.ID)
		f.actionVariable(own, "TOKEN", "a")
		f.actionVariable(repo, "TOKEN", "b")
		is.NoErr(f.ActionVariables.Delete(f.ctx, own, "TOKEN"))
		_, err := f.ActionVariables.Get(f.ctx, own, "TOKEN")
		isCategory(is, err, errs.ErrNotFound, "variable not found")
		isCategory(is, f.ActionVariables.Delete(f.ctx, own, "TOKEN"), errs.ErrNotFound, "variable not found")
		_, err = f.ActionVariables.Get(f.ctx, repo, "TOKEN") // the repository's stays
		is.NoErr(err)
		f.actionVariable(own, "TOKEN", "again") // a deleted name is free again

		err = f.ActionVariables.Create(f.ctx, newActionVariable(actions.RepoScope(424242), "X", "x"))
		isCategory(is, err, errs.ErrNotFound, "variable owner does not exist")
		err = f.ActionVariables.Create(f.ctx, newActionVariable(actions.OwnerScope(424242), "X", "x"))
		isCategory(is, err, errs.ErrNotFound, "variable owner does not exist")
	},
	"VariablesDieWithTheirRepositoryOrAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann, bob := f.user("ann"), f.user("bob")
		r := f.repo(ann, "code")
		f.actionVariable(actions.RepoScope(r.ID), "TOKEN", "a")
		f.actionVariable(actions.OwnerScope(bob.ID), "TOKEN", "b")
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		_, total, err := f.ActionVariables.List(f.ctx, actions.RepoScope(r.ID), firstPage)
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		_, total, err = f.ActionVariables.List(f.ctx, actions.OwnerScope(bob.ID), firstPage)
		is.NoErr(err)
		is.Equal(total, int64(0))
	},
}
