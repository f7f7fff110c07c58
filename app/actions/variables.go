package actions

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// errVariableExists is Gitea's answer to a name the scope already has.
var errVariableExists = errs.Conflict("variable name already exists")

// Variables are the use cases of workflow variables, in one scope each: an
// account's (a user's or an organisation's) or a repository's.
type Variables struct{ *Service }

// Variables returns the workflow variable use cases.
func (s *Service) Variables() Variables { return Variables{s} }

// List lists one page of the scope's variables, ordered by name.
func (s Variables) List(ctx context.Context, scope actions.Scope, opts ports.ListOptions) ([]*actions.Variable, int64, error) {
	return s.stores.ActionVariables.List(ctx, scope, opts)
}

// Get finds the scope's variable called name, in any case.
func (s Variables) Get(ctx context.Context, scope actions.Scope, name string) (*actions.Variable, error) {
	return s.stores.ActionVariables.Get(ctx, scope, actions.LookupVariableName(name))
}

// Create adds the variable called name (stored upper-cased) to the scope:
// 422 for a name the rule refuses, an empty value or one too long; 409
// when the scope has the name already, in any case. The checks come in
// Gitea's order: the body's required value, the name's use, the name's
// rule, then the value's length.
func (s Variables) Create(ctx context.Context, scope actions.Scope, name, value, description string) (*actions.Variable, error) {
	if value == "" {
		return nil, errs.Invalid("Required", "Value")
	}
	if _, err := s.Get(ctx, scope, name); err == nil {
		return nil, errVariableExists
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	upper, err := actions.VariableName("name", name)
	if err != nil {
		return nil, err
	}
	data, desc, err := actions.VariableText(value, description)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	v := &actions.Variable{Scope: scope, Name: upper, Data: data, Description: desc, Created: now, Updated: now}
	if err := s.stores.ActionVariables.Create(ctx, v); err != nil {
		return nil, err
	}
	return v, nil
}

// Update rewrites the scope's variable called name: its value and
// description, and its name when newName is not empty (a rename). As in
// Gitea the description is replaced, so an absent one clears it. 404 when
// the variable is absent, 422 as Create, 409 when the new name is another
// variable's. The checks come in Gitea's order: the body's required value,
// the variable's presence, the new name's rule, then the value's length.
func (s Variables) Update(ctx context.Context, scope actions.Scope, name, newName, value, description string) error {
	if value == "" {
		return errs.Invalid("Required", "Value")
	}
	if newName == "" {
		newName = name
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		v, err := tx.ActionVariables.Get(ctx, scope, actions.LookupVariableName(name))
		if err != nil {
			return err
		}
		upper, err := actions.VariableName("name", newName)
		if err != nil {
			return err
		}
		data, desc, err := actions.VariableText(value, description)
		if err != nil {
			return err
		}
		v.Name, v.Data, v.Description, v.Updated = upper, data, desc, s.clock.Now()
		return tx.ActionVariables.Update(ctx, v)
	})
}

// Delete removes the scope's variable called name, in any case.
func (s Variables) Delete(ctx context.Context, scope actions.Scope, name string) error {
	return s.stores.ActionVariables.Delete(ctx, scope, actions.LookupVariableName(name))
}
