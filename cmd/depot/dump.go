package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	cfg, err := loadConfig(fs, commandHelp{name: "dump",
		about: "Writes the whole site into one archive while the server runs: a snapshot of the database,\n" +
			"the repositories (their references as of the snapshot), the attachments, avatars, packages,\n" +
			"artifacts and the keys, with a manifest. Restore it with 'depot restore'."}, args, getenv, stdout)
	if err != nil {
		return err
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

// progressPrinter shows a phase's progress on stderr, at most every half
// second, and each phase's last figure.
type progressPrinter struct {
	mu    sync.Mutex
	w     io.Writer
	quiet bool
	extra func() string
	phase string
	line  string
	last  time.Time
}

func newProgressPrinter(w io.Writer, quiet bool, extra func() string) *progressPrinter {
	return &progressPrinter{w: w, quiet: quiet, extra: extra}
}

func (p *progressPrinter) report(phase string, done, total int) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("%s: %d", phase, done)
	if total > 0 {
		line += fmt.Sprintf("/%d", total)
	}
	if p.extra != nil {
		line += p.extra()
	}
	if phase != p.phase && p.line != "" {
		fmt.Fprintln(p.w, p.line) // the previous phase's last figure
		p.last = time.Now()
	} else if time.Since(p.last) > 500*time.Millisecond {
		fmt.Fprintln(p.w, line)
		p.last = time.Now()
	}
	p.phase, p.line = phase, line
}

func (p *progressPrinter) done() {
	if p.quiet || p.line == "" {
		return
	}
	fmt.Fprintln(p.w, p.line)
}

// byteSize prints n bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

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

// cmdDoctor runs `depot doctor [--fix]`.
func cmdDoctor(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fix := fs.Bool("fix", false, "repair what can be repaired safely: reinstall the push hooks, remove orphaned blobs, recreate missing repositories empty")
	skipFsck := fs.Bool("skip-fsck", false, "do not run git fsck on every repository")
	cfg, err := loadConfig(fs, commandHelp{name: "doctor",
		about: "Checks the site: the push hooks, repository rows against directories on disk, git fsck of each\n" +
			"repository, blobs without rows and rows without blobs. Prints what it finds; exits non-zero\n" +
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
