package ports

import "context"

// ChangeStamps tell a cache of answers whether the database may have
// changed since the answer was built.
type ChangeStamps interface {
	// Stamp returns the database's change stamp. Two equal stamps mean that
	// no write committed between the two reads; any commit, by this server
	// or another one sharing the database, gives a different stamp (a stamp
	// may also change with nothing of interest written). Read it before the
	// rows an answer is built from: the answer is good while it is unchanged.
	Stamp(ctx context.Context) (string, error)
}
