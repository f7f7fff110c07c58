package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/depothq/depot/adapters/sitearchive"
	"github.com/depothq/depot/app/backup"
	"github.com/depothq/depot/wire"
)

// cmdDump runs `depot dump`: one archive of the running site.
func cmdDump(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dump", flag.ContinueOnError)
	file := fs.String("file", "", "where to write the archive, - for standard output (default depot-dump-<UTC time>.tar.zst, or .tar.gz/.tar)")
	compress := fs.String("compress", "zstd", "compression: zstd, gzip or none")
	quiet := fs.Bool("quiet", false, "print no progress")
	lockTimeout := fs.Duration("lock-timeout", 2*time.Minute, "the longest wait for the pushes running to end before the snapshot (a Go duration: 30s, 5m); past it the dump fails, writing nothing; 0 waits as long as they take")
	cfg, err := loadConfig(fs, commandHelp{name: "dump",
		about: "Writes the whole site into one archive while the server runs: a snapshot of the database,\n" +
			"the repositories (their references as of the snapshot), the attachments, avatars, packages,\n" +
			"artifacts and the keys, with a manifest. Restore it with 'depot restore'."}, args, getenv, stdout)
	if err != nil {
		return err
	}
	if *lockTimeout < 0 {
		return fmt.Errorf("--lock-timeout must not be negative, got %s", *lockTimeout)
	}
	comp, err := sitearchive.ParseCompression(*compress)
	if err != nil {
		return err
	}
	name := *file
	if name == "" {
		name = "depot-dump-" + time.Now().UTC().Format("20060102-150405") + map[sitearchive.Compression]string{
			sitearchive.Zstd: ".tar.zst", sitearchive.Gzip: ".tar.gz", sitearchive.None: ".tar"}[comp]
	}
	log := newLogger(cfg, stderr)
	dumper, cleanup, err := wire.NewDumper(ctx, wire.Options{Site: cfg.SiteSettings(), DataDir: cfg.DataDir, DSN: cfg.DB, Log: log})
	if err != nil {
		return err
	}
	defer cleanup()
	dumper.LockTimeout = *lockTimeout

	var out io.Writer = stdout
	var f *os.File
	if name != "-" {
		// Written under a temporary name and renamed when complete, so a
		// file with the final name is always a whole archive.
		if f, err = os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+"-*"); err != nil {
			return err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		out = f
	}
	aw, err := sitearchive.NewWriter(out, comp)
	if err != nil {
		return err
	}
	started := time.Now()
	p := newProgressPrinter(stderr, *quiet, func() string {
		return fmt.Sprintf(", %s", byteSize(aw.Written))
	})
	m, err := dumper.Dump(ctx, aw, p.report)
	if err == nil {
		err = aw.Close()
	}
	p.done()
	if errors.Is(err, backup.ErrGateTimeout) {
		return fmt.Errorf("dump failed, nothing was written: %w; try again when the push ends, or raise --lock-timeout (0 waits as long as it takes)", err)
	}
	if err != nil {
		return fmt.Errorf("dump failed: %w", err)
	}
	if f != nil {
		if err := errors.Join(f.Sync(), f.Close()); err != nil {
			return err
		}
		if err := os.Chmod(f.Name(), 0o600); err != nil {
			return err
		}
		if err := os.Rename(f.Name(), name); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d repositories, %s database at migration %s, %s of content in %s\n",
			name, m.Repositories, m.Database, m.MigrationLevel, byteSize(aw.Written), time.Since(started).Round(time.Millisecond))
	}
	return nil
}
