package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/adapters/procmem"
)

// cmdServe starts the server and runs until SIGINT or SIGTERM.
//
// The listeners are opened before anything is written: a port that is taken
// stops the start before the first administrator is created, so its
// password, printed once, can never go to a server that did not come up.
func cmdServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	started := time.Now()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg, err := loadConfig(fs, commandHelp{name: "serve", allConfig: true,
		about: "Applies pending migrations, creates the site administrator \"admin\" on an empty database\n" +
			"(its password is printed once; reset it with 'depot admin user change-password'),\n" +
			"and serves the API and Git over HTTP (and over SSH with --ssh-listen) until SIGINT or SIGTERM."},
		args, getenv, stdout)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	applyMemoryLimit(cfg, getenv)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listening on %s (choose another address with --listen or DEPOT_LISTEN): %w", cfg.Listen, err)
	}
	// ServeWithSSH closes the listeners once it has them.
	closeListeners := func(lns ...net.Listener) {
		for _, l := range lns {
			if l != nil {
				_ = l.Close()
			}
		}
	}
	app, cleanup, err := openApp(ctx, cfg, log)
	if err != nil {
		closeListeners(ln)
		return err
	}
	defer cleanup()
	var sshLn net.Listener
	if app.SSH.Enabled() {
		if sshLn, err = app.SSH.Listen(); err != nil {
			closeListeners(ln)
			return fmt.Errorf("%w (choose another address with --ssh-listen or DEPOT_SSH_LISTEN)", err)
		}
	}
	// Prepare also settles what a crash left on disk before requests come.
	pw, err := app.Prepare(ctx)
	if err != nil {
		closeListeners(ln, sshLn)
		return fmt.Errorf("preparing the site: %w", err)
	}
	if pw != "" {
		// The password goes to stderr once, in the banner below, which no
		// log level hides; the log record only says that it happened.
		log.Warn("created the site administrator; its password is printed once below, change it after signing in",
			"username", "admin")
		fmt.Fprintf(stderr, "\n  ==> administrator account created: username admin, password %s\n"+
			"      (lost it? depot admin user change-password --username admin --password NEW)\n\n", pw)
	}
	// Start-up's garbage (migrations, the route table, package tables, and
	// argon2id's 19 MiB arena when the administrator was created) goes back
	// to the system now rather than as the scavenger gets to it; alongside
	// the first requests, so that they do not wait for it.
	go debug.FreeOSMemory()
	// Once the server is quiet, the pages of the executable that only
	// start-up ran (every package's init) go back too, and after each burst
	// those the burst mapped; they return on a fault as they are used.
	app.IdleRelease = httpkit.IdleRelease{AfterStart: procmem.ReleaseAfterStart, AfterBurst: procmem.Release}
	if sshLn != nil {
		log.Info("depot is listening for Git over SSH", "addr", sshLn.Addr().String())
	}
	log.Info("depot is listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL,
		"database", app.Dialect(), "data_dir", cfg.DataDir, "startup", time.Since(started))
	err = app.ServeWithSSH(ctx, ln, sshLn)
	log.Info("depot stopped")
	return err
}

// applyMemoryLimit sets the runtime's soft memory limit from memory_limit,
// unless GOMEMLIMIT is set (the runtime read it already) or the key is 0.
func applyMemoryLimit(cfg Config, getenv func(string) string) {
	if getenv("GOMEMLIMIT") != "" || cfg.MemoryLimit <= 0 {
		return
	}
	debug.SetMemoryLimit(cfg.MemoryLimit)
}
