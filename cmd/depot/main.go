// Command depot is the Depot server and its administration tool.
//
//	depot serve            start the server (migrates first)
//	depot migrate          apply pending schema migrations
//	depot admin user ...   manage accounts (create, list, change-password, totp)
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
  hook pre-receive|post-receive run by git during a push served by Depot (internal)
  version                       print the version

Every command takes the configuration flags (see 'depot serve -h').
`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "depot:", err)
		}
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
		return cmdServe(ctx, args[1:], getenv, stderr)
	case "migrate":
		return cmdMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "admin":
		return cmdAdmin(ctx, args[1:], getenv, stdout, stderr)
	case "hook":
		return cmdHook(ctx, args[1:], getenv)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "depot "+httpadapter.Version+" (Gitea API "+httpadapter.APILevel+")")
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// loadConfig parses a command's flags (the configuration flags plus its own)
// and returns the configuration.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	fv := RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	return LoadConfig(fs, fv, getenv)
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
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args, getenv)
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
