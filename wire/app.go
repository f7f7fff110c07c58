package wire

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
)

// Init assembles the service on the backend the options name: Postgres when
// a DSN is given, the embedded SQLite database otherwise.
func Init(ctx context.Context, o Options) (*App, func(), error) {
	if o.DSN != "" {
		return InitPostgres(ctx, o)
	}
	return InitSQLite(ctx, o)
}

// Prepare migrates the schema and creates the first administrator of an
// empty site. It returns that administrator's password when one was made.
func (a *App) Prepare(ctx context.Context) (adminPassword string, err error) {
	if err := a.DB.Migrate(ctx); err != nil {
		return "", err
	}
	// Deletions that crashed after their commit left directories aside.
	if err := a.Git.Sweep(ctx); err != nil {
		a.Log.Warn("sweeping deleted repositories", "err", err)
	}
	// Renames and transfers that crashed around their commit left a
	// directory where the database does not say it is.
	if err := a.Repos.ReconcileMoves(ctx); err != nil {
		a.Log.Error("settling interrupted repository moves", "err", err)
	}
	// Pushes that were cut off left their objects in a quarantine.
	a.sweepIncoming(ctx)
	// Uploads that were cut off, and blobs whose row was never committed
	// or already deleted, stay in the attachment store.
	a.sweepUploads(ctx)
	return a.Users.EnsureAdmin(ctx)
}

// shutdownGrace is how long in-flight requests get to finish on shutdown.
const shutdownGrace = 15 * time.Second

// Serve answers HTTP on ln, and Git over SSH on the site's SSH address when
// one is set, until ctx ends, then lets in-flight requests finish and
// flushes the batched token last-use times.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	var sshLn net.Listener
	if a.SSH.Enabled() {
		var err error
		if sshLn, err = a.SSH.Listen(); err != nil {
			_ = ln.Close()
			return err
		}
	}
	return a.ServeWithSSH(ctx, ln, sshLn)
}

// ServeWithSSH is Serve with the SSH listener opened by the caller (nil: no
// SSH server), so that the caller knows its address. On shutdown the SSH
// server stops first: the hooks of its pushes call back over HTTP.
func (a *App) ServeWithSSH(ctx context.Context, ln, sshLn net.Listener) error {
	a.GitRunner.Listening(ln.Addr())
	limited, err := a.limitConnections(ln)
	if err != nil {
		_ = ln.Close()
		if sshLn != nil {
			_ = sshLn.Close()
		}
		return err
	}
	// Freed memory goes back to the system when start-up is over and when
	// the traffic stops.
	idle := httpkit.NewIdleMemory(a.IdleRelease)
	srv := &http.Server{
		Handler:           a.limitBodies(idle.Wrap(a.handler())),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          nil,
	}
	bg, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		a.LastUsed.Run(bg, time.Minute)
	}()
	// The node's name lets the runner take back at once the jobs its
	// earlier instance held when it died; without it (another server on
	// this data directory holds it) those wait for their leases to end.
	nodeName, err := a.Node.Acquire()
	if err != nil {
		a.Log.Warn("jobs: running without a node name; jobs of a crashed earlier instance wait for their leases", "err", err)
	} else if nodeName == "" {
		a.Log.Warn("jobs: another process on this data directory holds its node name; jobs of a crashed earlier instance wait for their leases")
	}
	defer a.Node.Release()
	// The periodic tasks' ticks are queued before the runner starts.
	if err := a.Cron.Start(ctx); err != nil {
		a.Log.Error("scheduling the periodic tasks; they run only when asked until the next start", "err", err)
	}
	jobsDone := make(chan struct{})
	go func() {
		defer close(jobsDone)
		a.Jobs.RunAs(bg, nodeName)
	}()
	cronDone := make(chan struct{})
	go func() {
		defer close(cronDone)
		a.Cron.Keep(bg)
	}()
	cachesDone := make(chan struct{})
	go func() {
		defer close(cachesDone)
		a.Caches.Run(bg)
	}()
	go idle.Run(bg)
	sweepsDone := make(chan struct{})
	go func() {
		defer close(sweepsDone)
		a.runIncomingSweeps(bg)
	}()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(limited) }()
	var sshc chan error // nil, never ready, without SSH
	sshCtx, stopSSH := context.WithCancel(ctx)
	defer stopSSH()
	if sshLn != nil {
		sshc = make(chan error, 1)
		go func() { sshc <- a.SSH.Serve(sshCtx, sshLn) }()
	}
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
	case serveErr = <-sshc:
		sshc = nil
	}
	if sshc != nil {
		stopSSH()
		serveErr = errors.Join(serveErr, <-sshc)
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		serveErr = errors.Join(serveErr, err)
	}
	// Shutdown no longer tracks the fetches git answers on a connection
	// handed to it (githttp's hand_off.go): they are waited for here.
	if err := a.GitRunner.WaitDetached(shutdownCtx); err != nil {
		serveErr = errors.Join(serveErr, err)
	}
	// What git still runs past the grace (a push whose client stalled)
	// must not outlive the server.
	a.GitRunner.Stop()
	stopBG()
	<-flushed
	<-jobsDone
	<-sweepsDone
	<-cronDone
	<-cachesDone
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	return serveErr
}

// handler sends Git's smart HTTP paths and the hooks' calls to the Git
// handler and everything else to the API. API paths are told apart by their
// prefix before anything else is looked at.
func (a *App) handler() http.Handler {
	git := a.Metrics.WrapGit(a.GitHTTP)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/v1/") && a.GitHTTP.Handles(r.URL.Path) {
			git.ServeHTTP(w, r)
			return
		}
		if r.URL.Path == metricsPath && a.Metrics.Enabled() {
			a.Metrics.ServeHTTP(w, r)
			return
		}
		a.HTTP.ServeHTTP(w, r)
	})
}

// metricsPath is where Prometheus scrapes, as on Gitea.
const metricsPath = "/metrics"

// Dialect names the database backend in use.
func (a *App) Dialect() string { return a.DB.Dialect() }

// sweepUploads removes the attachment and release asset blobs no row
// names and the partial files of cut-off uploads. It runs before serving,
// so no upload of this process is in flight, and touches only files last
// written before now that no live upload (of another process) holds.
func (a *App) sweepUploads(ctx context.Context) {
	done, err := a.Issues.SweepUploads(ctx, time.Now())
	if err != nil {
		a.Log.Warn("sweeping orphaned uploads", "err", err, "orphans", done.Orphans, "partial", done.Partial)
		return
	}
	if done.Orphans+done.Partial > 0 {
		a.Log.Info("swept orphaned uploads", "orphans", done.Orphans, "partial", done.Partial)
	}
	now := time.Now()
	pkgs, err := a.Packages.SweepStorage(ctx, now, now.Add(-a.Packages.UploadTTL()))
	if err != nil {
		a.Log.Warn("sweeping orphaned package blobs", "err", err, "orphans", pkgs.Orphans, "partial", pkgs.Partial,
			"uploads", pkgs.Uploads)
		return
	}
	if pkgs.Orphans+pkgs.Partial+pkgs.Uploads > 0 {
		a.Log.Info("swept orphaned package blobs", "orphans", pkgs.Orphans, "partial", pkgs.Partial, "uploads", pkgs.Uploads)
	}
}
