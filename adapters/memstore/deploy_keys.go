package memstore

import (
	"context"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.DeployKeyStore = (*DeployKeyStore)(nil)

// DeployKeyStore is the in-memory ports.DeployKeyStore.
type DeployKeyStore struct{ d *DB }

var errDeployKeyNotFound = errs.NotFound("deploy key does not exist")

func (s *DeployKeyStore) Create(ctx context.Context, k *repository.DeployKey) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	for _, o := range st.deployKeys {
		if o.RepoID != k.RepoID {
			continue
		}
		if o.Title == k.Title {
			return errs.Conflict("a deploy key with this title already exists")
		}
		if o.Fingerprint == k.Fingerprint {
			return errs.Conflict("deploy key already exists")
		}
	}
	if _, ok := st.repos[k.RepoID]; !ok {
		return errRepoNotFound
	}
	row := *k
	row.Created = dbTime(row.Created)
	row.ID = st.next("deploy_keys")
	st.deployKeys[row.ID] = row
	k.ID = row.ID
	return nil
}

func (s *DeployKeyStore) Get(ctx context.Context, repoID, id int64) (*repository.DeployKey, error) {
	defer s.d.lock(ctx)()
	k, ok := s.d.s.deployKeys[id]
	if !ok || k.RepoID != repoID {
		return nil, errDeployKeyNotFound
	}
	return &k, nil
}

func (s *DeployKeyStore) List(ctx context.Context, repoID int64, fingerprint string, opts ports.ListOptions) ([]*repository.DeployKey, int64, error) {
	defer s.d.lock(ctx)()
	var list []*repository.DeployKey
	for _, id := range sortedKeys(s.d.s.deployKeys) {
		k := s.d.s.deployKeys[id]
		if k.RepoID == repoID && (fingerprint == "" || k.Fingerprint == fingerprint) {
			list = append(list, &k)
		}
	}
	return page(list, opts), int64(len(list)), nil
}

func (s *DeployKeyStore) Delete(ctx context.Context, repoID, id int64) error {
	defer s.d.lock(ctx)()
	k, ok := s.d.s.deployKeys[id]
	if !ok || k.RepoID != repoID {
		return errDeployKeyNotFound
	}
	delete(s.d.s.deployKeys, id)
	return nil
}

func (s *DeployKeyStore) GetByFingerprint(ctx context.Context, repoID int64, fingerprint string) (*repository.DeployKey, error) {
	defer s.d.lock(ctx)()
	for _, k := range s.d.s.deployKeys {
		if k.RepoID == repoID && k.Fingerprint == fingerprint {
			return &k, nil
		}
	}
	return nil, errDeployKeyNotFound
}

func (s *DeployKeyStore) FingerprintInUse(ctx context.Context, fingerprint string) (bool, error) {
	defer s.d.lock(ctx)()
	for _, k := range s.d.s.deployKeys {
		if k.Fingerprint == fingerprint {
			return true, nil
		}
	}
	return false, nil
}
