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
)

// cmdServe starts the server and runs until SIGINT or SIGTERM.
func cmdServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	started := time.Now()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	app, cleanup, err := openApp(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	// Prepare also settles what a crash left on disk before requests come.
	pw, err := app.Prepare(ctx)
	if err != nil {
		return fmt.Errorf("preparing the site: %w", err)
	}
	if pw != "" {
		// The password goes to stderr once, in the banner below, which no
		// log level hides; the log record only says that it happened.
		log.Warn("created the site administrator; its password is printed once below, change it after signing in",
			"username", "admin")
		fmt.Fprintf(stderr, "\n  ==> administrator account created: username admin, password %s\n\n", pw)
		// Hashing that password took argon2id's 19 MiB arena; hand it back
		// to the system now rather than idle with it.
		debug.FreeOSMemory()
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	var sshLn net.Listener
	if app.SSH.Enabled() {
		if sshLn, err = app.SSH.Listen(); err != nil {
			_ = ln.Close()
			return err
		}
		log.Info("depot is listening for Git over SSH", "addr", sshLn.Addr().String())
	}
	log.Info("depot is listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL,
		"database", app.Dialect(), "data_dir", cfg.DataDir, "startup", time.Since(started))
	err = app.ServeWithSSH(ctx, ln, sshLn)
	log.Info("depot stopped")
	return err
}
