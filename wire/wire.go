//go:build wireinject

package wire

import (
	"context"

	gwire "github.com/google/wire"
)

// InitSQLite assembles the service on the embedded SQLite database.
func InitSQLite(ctx context.Context, o Options) (*App, func(), error) {
	panic(gwire.Build(appSet, provideSQLite))
}

// InitPostgres assembles the service on Postgres.
func InitPostgres(ctx context.Context, o Options) (*App, func(), error) {
	panic(gwire.Build(appSet, providePostgres))
}
