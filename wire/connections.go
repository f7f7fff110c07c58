package wire

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/depothq/depot/adapters/connlimit"
	"github.com/depothq/depot/adapters/httpkit"
)

// limitConnections bounds the connections one client address may hold on
// the HTTP listener; the ones past the bound are answered 429.
func (a *App) limitConnections(ln net.Listener) (net.Listener, error) {
	limit := a.Site.Connections.MaxConnsPerAddr
	if limit <= 0 {
		return ln, nil
	}
	exempt, err := connlimit.ParseExempt(a.Site.Connections.MaxConnsExempt)
	if err != nil {
		return nil, err
	}
	return connlimit.Listen(ln, connlimit.New(limit, exempt), httpkit.RefuseTooManyConnections), nil
}

// limitBodies bounds how slowly request bodies may arrive, Git's pack
// streams included.
func (a *App) limitBodies(h http.Handler) http.Handler {
	c := a.Site.Connections
	return httpkit.BodyDeadlines(h, httpkit.BodyLimits{Idle: c.BodyIdleTimeout, MinRate: c.BodyMinRate,
		Window: c.BodyRateWindow})
}

// sweepIncoming removes the objects interrupted pushes left behind longer
// than the site's IncomingMaxAge ago.
func (a *App) sweepIncoming(ctx context.Context) {
	n, err := a.RepoFiles.SweepIncoming(ctx, a.Site.Connections.IncomingMaxAge)
	if err != nil && ctx.Err() == nil {
		a.Log.Warn("sweeping the objects of interrupted pushes", "err", err, "removed", n)
		return
	}
	if n > 0 {
		a.Log.Info("swept the objects of interrupted pushes", "removed", n)
	}
}

// runIncomingSweeps sweeps every IncomingSweepInterval until ctx ends (the
// start-up sweep is Prepare's).
func (a *App) runIncomingSweeps(ctx context.Context) {
	every := a.Site.Connections.IncomingSweepInterval
	if every <= 0 {
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			a.sweepIncoming(ctx)
		}
	}
}
