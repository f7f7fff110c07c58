package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/depothq/depot/app/backup"
	"github.com/depothq/depot/wire"
)

// cmdDoctor runs `depot doctor [--fix]`.
func cmdDoctor(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fix := fs.Bool("fix", false, "repair what can be repaired safely: reinstall the push hooks, remove orphaned blobs and task logs and the temporary files (and a killed dump's database copy) crashes left, recreate missing repositories empty, clear avatars whose image is gone, expire artifacts whose file is gone")
	skipFsck := fs.Bool("skip-fsck", false, "do not run git fsck on every repository")
	cfg, err := loadConfig(fs, commandHelp{name: "doctor",
		about: "Checks the site: the push hooks, repository rows against directories on disk, git fsck of each\n" +
			"repository, blobs without rows and rows without blobs (attachments and release assets, package\n" +
			"blobs, avatars, Actions artifacts, Actions task logs), and temporary files cut-off writes left\n" +
			"under the data directory (a killed SQLite dump's .dump-* folder among them; a running dump's is\n" +
			"never touched). Prints what it finds; exits non-zero\n" +
			"while problems remain. --fix repairs what it safely can."}, args, getenv, stdout)
	if err != nil {
		return err
	}
	doctor, cleanup, err := wire.NewDoctor(ctx, wire.Options{Site: cfg.SiteSettings(), DataDir: cfg.DataDir, DSN: cfg.DB,
		Log: newLogger(cfg, stderr)})
	if err != nil {
		return err
	}
	defer cleanup()
	p := newProgressPrinter(stderr, false, nil)
	findings, err := doctor.Check(ctx, backup.DoctorOptions{Fix: *fix, SkipFsck: *skipFsck}, p.report)
	p.done()
	for _, f := range findings {
		fmt.Fprintln(stdout, f.String())
	}
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	if n := backup.Remaining(findings); n > 0 {
		return fmt.Errorf("doctor: %d problem(s) remain", n)
	}
	fmt.Fprintln(stdout, "no problem remains")
	return nil
}
