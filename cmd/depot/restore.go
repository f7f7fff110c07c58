package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/sitearchive"
	"github.com/depothq/depot/wire"
)

// cmdRestore runs `depot restore ARCHIVE`: a new site from a dump.
func cmdRestore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var archive string
	switch {
	case len(args) > 0 && !strings.HasPrefix(args[0], "-"):
		archive, args = args[0], args[1:]
	case len(args) > 0 && !strings.HasPrefix(args[len(args)-1], "-"):
		archive, args = args[len(args)-1], args[:len(args)-1]
	}
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	quiet := fs.Bool("quiet", false, "print no progress")
	cfg, err := loadConfig(fs, commandHelp{name: "restore", args: "ARCHIVE",
		about: "Makes a new site from an archive 'depot dump' wrote (- reads standard input), into an empty\n" +
			"data directory (and, with --db, an empty Postgres database). A dump of either database restores\n" +
			"into either. Start 'depot serve' on the directory afterwards."}, args, getenv, stdout)
	if err != nil {
		return err
	}
	if archive == "" {
		return errors.New("usage: depot restore ARCHIVE [flags]")
	}
	var in io.Reader = os.Stdin
	if archive != "-" {
		f, err := os.Open(archive)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	restorer := wire.NewRestorer(wire.Options{Site: cfg.SiteSettings(), DataDir: cfg.DataDir, DSN: cfg.DB})
	ar, err := sitearchive.NewReader(in)
	if err != nil {
		return fmt.Errorf("restore refused: %w", err)
	}
	defer ar.Close()
	p := newProgressPrinter(stderr, *quiet, nil)
	m, err := restorer.Restore(ctx, ar, p.report)
	p.done()
	if err != nil {
		return fmt.Errorf("restore failed: %w", err)
	}
	fmt.Fprintf(stdout, "restored %d repositories and the %s database (migration %s) of a dump made %s by Depot %s into %s\n",
		m.Repositories, m.Database, m.MigrationLevel, m.Created.Format(time.RFC3339), m.DepotVersion, cfg.DataDir)
	return nil
}
