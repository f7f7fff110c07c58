// Command depot is the Depot server and its administration tool.
//
//	depot serve            start the server (migrates first)
//	depot migrate          apply pending schema migrations
//	depot admin user ...   manage accounts (create, list, change-password, totp)
//	depot dump             write the running site into one archive
//	depot restore ARCHIVE  make a new site from an archive
//	depot doctor [--fix]   check (and repair) rows against files on disk
//	depot version          print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"

	httpadapter "github.com/depothq/depot/adapters/http"
	"github.com/depothq/depot/wire"
	"github.com/lmittmann/tint"
	"github.com/mattn/go-isatty"
)

const usage = `usage: depot <command> [flags]

commands:
  serve                         start the server (applies migrations first)
  migrate                       apply pending schema migrations
  admin user create             create an account (--username --password --email [--admin] [--must-change-password])
  admin user list               list accounts
  admin user change-password    set an account's password (--username --password)
  admin user totp enable USER   enrol two-factor sign-in and print the otpauth URI
  admin user totp disable USER  remove two-factor sign-in
  dump                          write the running site into one archive (--file, --compress)
  restore ARCHIVE               make a new site from an archive, into an empty data directory
  doctor [--fix]                check rows against repositories, hooks and blobs on disk; repair with --fix
  hook pre-receive|post-receive run by git during a push served by Depot (internal)
  version                       print the version

Every command takes the configuration flags (see 'depot serve --help');
'depot <command> --help' lists a command's own flags.
`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // help was asked for and printed
		}
		fmt.Fprintln(os.Stderr, "depot:", err)
		os.Exit(2)
	}
}

// run dispatches a command line.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		return cmdServe(ctx, args[1:], getenv, stdout, stderr)
	case "migrate":
		return cmdMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "admin":
		return cmdAdmin(ctx, args[1:], getenv, stdout, stderr)
	case "dump":
		return cmdDump(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return cmdRestore(ctx, args[1:], getenv, stdout, stderr)
	case "doctor":
		return cmdDoctor(ctx, args[1:], getenv, stdout, stderr)
	case "hook":
		return cmdHook(ctx, args[1:], getenv, stdout)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "depot "+httpadapter.Version+" (Gitea API "+httpadapter.APILevel+")")
		return nil
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			// depot help serve == depot serve --help
			return run(ctx, append(slices.Clone(args[1:]), "--help"), getenv, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// newLogger logs with tint on a terminal and JSON otherwise (or as configured).
func newLogger(cfg Config, w io.Writer) *slog.Logger {
	terminal := false
	if f, ok := w.(*os.File); ok {
		terminal = isatty.IsTerminal(f.Fd())
	}
	opts := &slog.HandlerOptions{Level: cfg.SlogLevel()}
	if cfg.LogJSON(terminal) {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(tint.NewHandler(w, &tint.Options{Level: cfg.SlogLevel(), NoColor: !terminal}))
}

// openApp assembles the service for a command and migrates the schema.
func openApp(ctx context.Context, cfg Config, log *slog.Logger) (*wire.App, func(), error) {
	app, cleanup, err := wire.Init(ctx, wire.Options{Site: cfg.SiteSettings(), DataDir: cfg.DataDir, DSN: cfg.DB, Log: log})
	if err != nil {
		return nil, nil, err
	}
	if err := app.DB.Migrate(ctx); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("migrating the database: %w", err)
	}
	return app, cleanup, nil
}

func cmdMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	cfg, err := loadConfig(fs, commandHelp{name: "migrate",
		about: "Applies pending schema migrations to the database and exits (serve does it too)."}, args, getenv, stdout)
	if err != nil {
		return err
	}
	_, cleanup, err := openApp(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	cleanup()
	fmt.Fprintln(stdout, "database is up to date")
	return nil
}
