package memstore_test

import (
	"testing"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/contract"
)

// TestStoreContract runs the contract suite's groups the fake implements.
func TestStoreContract(t *testing.T) {
	contract.RunStoreGroups(t, func(t *testing.T) (ports.Stores, ports.Transactor) {
		db := memstore.New()
		return db.Stores(), db
	}, memstore.Groups...)
}
