package test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// healthAnswer is /api/healthz's body as Gitea shapes it.
type healthAnswer struct {
	Status      string `json:"status"`
	Description string `json:"description"`
	Checks      map[string][]struct {
		Status string `json:"status"`
		Time   string `json:"time"`
		Output string `json:"output"`
	} `json:"checks"`
}

// getHealth polls the health route without credentials.
func getHealth(t *testing.T, srv *testserver.Server) (int, healthAnswer) {
	t.Helper()
	r := getURL(t, srv.URL+"/api/healthz")
	var h healthAnswer
	if err := json.Unmarshal(r.Body, &h); err != nil {
		t.Fatalf("decode %q: %v", r.Body, err)
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("Cache-Control %q", r.Header.Get("Cache-Control"))
	}
	return r.Status, h
}

// TestHealthChecksDatabaseAndVolume polls the health route anonymously:
// pass with both checks while all is well, 424 naming the volume once the
// repositories' directory is gone, pass again once it is back.
func TestHealthChecksDatabaseAndVolume(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)

		status, h := getHealth(t, srv)
		is.Equal(status, http.StatusOK)
		is.Equal(h.Status, "pass")
		is.Equal(len(h.Checks), 2)
		for _, name := range []string{"database:ping", "repositories:volume"} {
			is.Equal(len(h.Checks[name]), 1)
			is.Equal(h.Checks[name][0].Status, "pass")
			is.Equal(h.Checks[name][0].Output, "")
			_, err := time.Parse(time.RFC3339, h.Checks[name][0].Time)
			is.NoErr(err)
		}

		repos := filepath.Join(srv.DataDir, "repos")
		is.NoErr(os.Rename(repos, repos+".away"))
		status, h = getHealth(t, srv)
		is.Equal(status, http.StatusFailedDependency)
		is.Equal(h.Status, "fail")
		is.Equal(h.Checks["repositories:volume"][0].Status, "fail")
		is.True(h.Checks["repositories:volume"][0].Output != "")
		is.Equal(h.Checks["database:ping"][0].Status, "pass")

		is.NoErr(os.Rename(repos+".away", repos))
		status, h = getHealth(t, srv)
		is.Equal(status, http.StatusOK)
		is.Equal(h.Status, "pass")

		// HEAD answers too; other methods do not.
		resp, err := http.Head(srv.URL + "/api/healthz")
		is.NoErr(err)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
		resp, err = http.Post(srv.URL+"/api/healthz", "application/json", nil)
		is.NoErr(err)
		_ = resp.Body.Close()
		is.True(resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotFound)
	})
}
