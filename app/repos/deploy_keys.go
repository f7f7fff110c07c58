package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// DeployKeys are the use cases of a repository's deploy keys.
type DeployKeys struct{ *Service }

// DeployKeys returns the deploy key use cases.
func (s *Service) DeployKeys() DeployKeys { return DeployKeys{s} }

// List lists one page of a's deploy keys, optionally only the one with fingerprint.
func (s DeployKeys) List(ctx context.Context, a *Access, fingerprint string, opts ports.ListOptions) ([]*repository.DeployKey, int64, error) {
	return s.stores.DeployKeys.List(ctx, a.Repo.ID, fingerprint, opts)
}

// Get finds one of a's deploy keys.
func (s DeployKeys) Get(ctx context.Context, a *Access, id int64) (*repository.DeployKey, error) {
	return s.stores.DeployKeys.Get(ctx, a.Repo.ID, id)
}

// Add adds an OpenSSH public key to a.
func (s DeployKeys) Add(ctx context.Context, a *Access, title, key string, readOnly bool) (*repository.DeployKey, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return nil, errs.Invalid("Required", "Title")
	}
	if len(title) > 50 {
		return nil, errs.Invalid("MaxSize", "Title")
	}
	content, fp, err := s.keys.Parse("Key", key)
	if err != nil {
		return nil, err
	}
	// A key is either an account's or deploy keys', never both: the SSH
	// server could not tell whom it authenticates.
	if _, err := s.stores.PublicKeys.GetByFingerprint(ctx, fp); err == nil {
		return nil, errs.Invalid("Key content has been used as non-deploy key", "Key")
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	k := &repository.DeployKey{RepoID: a.Repo.ID, Title: title, Content: content, Fingerprint: fp, ReadOnly: readOnly, Created: s.clock.Now()}
	if err := s.stores.DeployKeys.Create(ctx, k); err != nil {
		if errors.Is(err, errs.ErrConflict) {
			field := "Key"
			if strings.Contains(errs.Message(err), "title") {
				field = "Title"
			}
			return nil, errs.Invalid(errs.Message(err), field)
		}
		return nil, err
	}
	return k, nil
}

// Delete removes one of a's deploy keys.
func (s DeployKeys) Delete(ctx context.Context, a *Access, id int64) error {
	return s.stores.DeployKeys.Delete(ctx, a.Repo.ID, id)
}
