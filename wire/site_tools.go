package wire

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/depothq/depot/adapters/blobs"
	"github.com/depothq/depot/adapters/githttp"
	httpadapter "github.com/depothq/depot/adapters/http"
	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/adapters/sitearchive"
	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/backup"
)

// The maintenance commands (`depot dump`, `restore`, `doctor`) are
// assembled here by hand: each needs a few adapters, and none of them may
// start what serving starts (the hook scripts' installation would hide a
// missing hook from the doctor; a restore must not create a database
// before its archive is read).

// NewDumper assembles `depot dump` on the site o names. It does not
// migrate: a dump reads the schema as it is.
func NewDumper(ctx context.Context, o Options) (*backup.Dumper, func(), error) {
	db, err := sqlstore.Open(ctx, sqlstore.Config{DSN: o.DSN, DataDir: o.DataDir})
	if err != nil {
		return nil, nil, err
	}
	return &backup.Dumper{
		Gate:    githttp.NewPushGate(filepath.Join(o.DataDir, githttp.PushGateFile)),
		DB:      db,
		Repos:   sitearchive.NewRepositoryFiles(o.DataDir),
		Dir:     sitearchive.NewDirectory(o.DataDir),
		Version: httpadapter.Version, APILevel: httpadapter.APILevel,
		Now: time.Now,
	}, func() { _ = db.Close() }, nil
}

// NewRestorer assembles `depot restore` into the data directory (and the
// Postgres database, with a DSN) o names.
func NewRestorer(o Options) *backup.Restorer {
	return &backup.Restorer{
		Dir: sitearchive.NewDirectory(o.DataDir),
		DB:  sqlstore.NewLoader(sqlstore.Config{DSN: o.DSN, DataDir: o.DataDir}),
	}
}

// NewDoctor assembles `depot doctor` on the site o names, migrating its
// schema first as every command that writes does.
func NewDoctor(ctx context.Context, o Options) (*backup.Doctor, func(), error) {
	db, err := sqlstore.Open(ctx, sqlstore.Config{DSN: o.DSN, DataDir: o.DataDir})
	if err != nil {
		return nil, nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	git, err := libgit2.New(filepath.Join(o.DataDir, "repos"), o.Log)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	attachments, err1 := provideAttachments(o)
	pkgBlobs, err2 := providePackageBlobs(o)
	avatars, err3 := provideAvatars(o)
	artifacts, err4 := provideArtifactBlobs(o)
	taskLogs, err5 := provideActionLogs(o)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		git.Close()
		_ = db.Close()
		return nil, nil, err
	}
	stores := db.Stores()
	return &backup.Doctor{
			Repos:       sitearchive.NewRepositoryFiles(o.DataDir),
			Inventory:   db.SiteInventory(),
			Hooks:       githttp.NewSiteHooks(filepath.Join(o.DataDir, "hooks")),
			Git:         git,
			Attachments: attachments,
			UploadRefs:  stores.UploadRefs,
			PkgBlobs:    pkgBlobs,
			Packages:    stores.Packages,
			Avatars:     avatars,
			Artifacts:   artifacts,
			TaskLogs:    taskLogs,
			TempFiles:   blobs.NewTempFiles(o.DataDir),
			Drops:       db.CacheDropBus(),
			Now:         time.Now,
		}, func() {
			git.Close()
			_ = db.Close()
		}, nil
}
