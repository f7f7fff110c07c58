package actions

import (
	"context"
	"errors"
	"strconv"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Secrets are the use cases of workflow secrets. A value is sealed under
// the site key before it reaches a store, bound to its owner and name: a
// sealed value copied to another row does not open there. No use case
// answers a value: lists give names, descriptions and creation times.
type Secrets struct{ *Service }

// Secrets returns the secret use cases.
func (s *Service) Secrets() Secrets { return Secrets{s} }

// secretLabel binds a sealed value to its owner and name.
func secretLabel(owner actions.SecretOwner, name string) string {
	if owner.RepoID != 0 {
		return "actions-secret:repo:" + strconv.FormatInt(owner.RepoID, 10) + ":" + name
	}
	return "actions-secret:owner:" + strconv.FormatInt(owner.OwnerID, 10) + ":" + name
}

// Put creates owner's secret called name, or replaces its value and
// description (an update keeps its creation time); created tells which.
// The name is upper-cased; a description over the limit is cut.
func (s Secrets) Put(ctx context.Context, owner actions.SecretOwner, name, data, description string) (created bool, err error) {
	if owner.OwnerID == 0 && owner.RepoID == 0 {
		return false, errors.New("actions: a secret needs an owner")
	}
	name, err = actions.NormalizeSecretName(name)
	if err != nil {
		return false, err
	}
	if err := actions.CheckSecretData(data); err != nil {
		return false, err
	}
	sealed, err := s.box.Seal([]byte(data), secretLabel(owner, name))
	if err != nil {
		return false, err
	}
	description = actions.TruncateSecretDescription(description)
	// Two first puts of one name race to insert: the loser's transaction
	// fails on the unique name and is run again, as an update.
	for attempt := 0; ; attempt++ {
		err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			old, err := tx.ActionSecrets.Get(ctx, owner, name)
			switch {
			case err == nil:
				created = false
				old.Data, old.Description = sealed, description
				return tx.ActionSecrets.Update(ctx, old)
			case errors.Is(err, errs.ErrNotFound):
				created = true
				return tx.ActionSecrets.Create(ctx, &actions.Secret{SecretOwner: owner, Name: name, Data: sealed,
					Description: description, Created: s.clock.Now()})
			default:
				return err
			}
		})
		if attempt == 0 && errors.Is(err, errs.ErrConflict) {
			continue
		}
		return created, err
	}
}

// List lists one page of owner's secrets, ordered by name, without their values.
func (s Secrets) List(ctx context.Context, owner actions.SecretOwner, opts ports.ListOptions) ([]*actions.Secret, int64, error) {
	list, total, err := s.stores.ActionSecrets.List(ctx, owner, opts)
	for _, sec := range list {
		sec.Data = ""
	}
	return list, total, err
}

// Delete removes owner's secret called name (in any case); a name that no
// secret can have is not found.
func (s Secrets) Delete(ctx context.Context, owner actions.SecretOwner, name string) error {
	name, err := actions.NormalizeSecretName(name)
	if err != nil {
		return errs.NotFound("secret not found")
	}
	return s.stores.ActionSecrets.Delete(ctx, owner, name)
}

// Reveal returns the value of owner's secret called name, for the workflow
// runs that read it; a value sealed for another row is an error.
func (s Secrets) Reveal(ctx context.Context, owner actions.SecretOwner, name string) (string, error) {
	name, err := actions.NormalizeSecretName(name)
	if err != nil {
		return "", errs.NotFound("secret not found")
	}
	sec, err := s.stores.ActionSecrets.Get(ctx, owner, name)
	if err != nil {
		return "", err
	}
	plain, err := s.box.Open(sec.Data, secretLabel(owner, name))
	if err != nil {
		return "", errors.New("actions: the secret's stored value cannot be read; set it again")
	}
	return string(plain), nil
}
