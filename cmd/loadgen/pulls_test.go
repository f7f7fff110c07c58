package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestPreparePulls opens pull requests on a real server the way the suite
// does and runs the pull request load briefly. It needs a built server:
// DEPOT_LOADGEN_DEPOT=bin/depot (make build) runs it, else it is skipped.
func TestPreparePulls(t *testing.T) {
	depot := os.Getenv("DEPOT_LOADGEN_DEPOT")
	if depot == "" {
		t.Skip("DEPOT_LOADGEN_DEPOT names no depot binary")
	}
	is := is.New(t)
	ctx := context.Background()
	work := t.TempDir()
	srv, err := startServer(ctx, depot, filepath.Join(work, "data"), filepath.Join(work, "depot.log"))
	is.NoErr(err)
	t.Cleanup(srv.kill)
	password, err := srv.adminPassword()
	is.NoErr(err)
	tokens, err := makeTokens(ctx, srv.url, password)
	is.NoErr(err)
	a := newAPI(srv.url, tokens[repoToken], seedClients)
	const n = 60
	start := time.Now()
	is.NoErr(preparePulls(ctx, a, n, func(f string, args ...any) { t.Logf(f, args...) }))
	t.Logf("opened %d pull requests in %s", n, time.Since(start).Round(time.Millisecond))

	code, h, _, err := a.do(ctx, http.MethodGet, pathPulls, nil)
	is.NoErr(err)
	is.Equal(code, http.StatusOK)
	is.Equal(h.Get("X-Total-Count"), strconv.Itoa(n))
	res, err := RunLoad(ctx, LoadConfig{URL: srv.url + pathPulls, Method: http.MethodGet, Connections: 32,
		Duration: 3 * time.Second, Header: http.Header{"Authorization": {"token " + tokens[repoToken]}}})
	is.NoErr(err)
	t.Logf("%s", res.String())
	is.Equal(res.Non2xx, int64(0))
}
