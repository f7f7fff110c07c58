package memstore

import (
	"context"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.TransferStore = (*TransferStore)(nil)

// TransferStore is the in-memory ports.TransferStore.
type TransferStore struct{ d *DB }

var errNoTransfer = errs.NotFound("no pending transfer")

func (s *TransferStore) Create(ctx context.Context, t *repository.Transfer) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	_, okD := st.users[t.DoerID]
	if err := st.refsExist(t.RepoID, t.RecipientID); err != nil || !okD {
		return errs.NotFound("repository or user does not exist")
	}
	row := *t
	row.Created = dbTime(row.Created)
	st.transfers[t.RepoID] = row
	return nil
}

func (s *TransferStore) Get(ctx context.Context, repoID int64) (*repository.Transfer, error) {
	defer s.d.lock(ctx)()
	t, ok := s.d.s.transfers[repoID]
	if !ok {
		return nil, errNoTransfer
	}
	return &t, nil
}

func (s *TransferStore) Delete(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.transfers[repoID]; !ok {
		return errNoTransfer
	}
	delete(s.d.s.transfers, repoID)
	return nil
}
