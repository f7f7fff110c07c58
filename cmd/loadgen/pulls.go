package main

// The pull request load needs pull requests. The suite opens them through
// the real API: a repository with auto_init, then for each pull request a
// commit on a new branch (POST R/contents/{path} with new_branch) and the
// pull request from it into main (POST R/pulls), by seedClients clients.
// The server checks each one's mergeability in the background meanwhile.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// pullsRepo is the repository the pull request load lists; benchPulls how
// many pull requests it holds. BenchmarkListPulls (adapters/http) measures
// the same listing in process over 10,000, inserted through the stores.
const (
	pullsRepo  = "pulls-bench"
	benchPulls = 1_000
	pathPulls  = "/api/v1/repos/admin/" + pullsRepo + "/pulls?limit=50"

	targetPullsRPS = 2000
	giteaPulls     = "not measured (lists leave out the diff stats)"
)

// preparePulls creates pullsRepo and opens n pull requests into its main
// branch, each from a branch of its own with one commit.
func preparePulls(ctx context.Context, a *api, n int, say func(string, ...any)) error {
	body, _ := json.Marshal(map[string]any{"name": pullsRepo, "auto_init": true})
	code, _, data, err := a.do(ctx, http.MethodPost, "/api/v1/user/repos", body)
	if err != nil {
		return err
	}
	if code != http.StatusCreated {
		return fmt.Errorf("creating %s: HTTP %d: %.200s", pullsRepo, code, data)
	}
	repo := "/api/v1/repos/admin/" + pullsRepo
	open := func(i int) error {
		branch := fmt.Sprintf("topic-%05d", i)
		content := base64.StdEncoding.EncodeToString([]byte("change " + strconv.Itoa(i) + "\n"))
		body, _ := json.Marshal(map[string]any{"content": content, "message": "Change " + strconv.Itoa(i),
			"branch": "main", "new_branch": branch})
		code, _, data, err := a.do(ctx, http.MethodPost, repo+"/contents/changes/"+branch+".txt", body)
		if err != nil {
			return err
		}
		if code != http.StatusCreated {
			return fmt.Errorf("commit on %s: HTTP %d: %.200s", branch, code, data)
		}
		body, _ = json.Marshal(map[string]any{"head": branch, "base": "main", "title": "Change " + strconv.Itoa(i),
			"body": "Adds changes/" + branch + ".txt."})
		code, _, data, err = a.do(ctx, http.MethodPost, repo+"/pulls", body)
		if err != nil {
			return err
		}
		if code != http.StatusCreated {
			return fmt.Errorf("pull request from %s: HTTP %d: %.200s", branch, code, data)
		}
		return nil
	}
	start := time.Now()
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range seedClients {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := open(i); err != nil {
					once.Do(func() { first = err })
					return
				}
				if d := done.Add(1); d%250 == 0 {
					el := time.Since(start)
					say("  %d of %d pull requests opened in %s (%.0f/s)", d, n, el.Round(time.Second), float64(d)/el.Seconds())
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
