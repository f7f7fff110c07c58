package main

// The repository loads need repositories. The suite creates them through the
// real API (POST /api/v1/user/repos): first a batch with auto_init, timed
// request by request as a measurement of its own, then plain ones until the
// site holds SuiteConfig.Repos repositories, which the search loads run over.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The repository names the suite creates: initName with auto_init (the GET
// load reads initName(1)), seedName without.
func initName(i int) string { return fmt.Sprintf("init-%04d", i) }
func seedName(i int) string { return fmt.Sprintf("bench-%05d", i) }

// createSpec is one batch of repository creations, measured as a run.
type createSpec struct {
	name     string // the run's name in the report
	first    int    // index of the first repository, for its name
	count    int
	clients  int // concurrent closed-loop clients
	autoInit bool
	goal
}

// createSpecs are the measured creations: count repositories with auto_init
// (README, MIT licence, Go .gitignore) by one client, as many more by four.
func createSpecs(count int) []createSpec {
	g := goal{p50: targetCreateP50, gitea: giteaCreate}
	return []createSpec{
		{name: "POST /api/v1/user/repos auto_init, 1 client", count: count, clients: 1, autoInit: true, goal: g},
		{name: "POST /api/v1/user/repos auto_init, 4 clients", first: count, count: count, clients: 4, autoInit: true, goal: g},
	}
}

// seedClients is how many clients create the plain repositories.
const seedClients = 8

// seedSpec is the plain creations that bring the site to total repositories,
// given that it holds have: one in ten with a description.
func seedSpec(have, total int64) createSpec {
	return createSpec{
		name:  fmt.Sprintf("POST /api/v1/user/repos plain (seeding), %d clients", seedClients),
		count: int(max(total-have, 0)), clients: seedClients,
	}
}

// body is the CreateRepoOption of the spec's i-th repository.
func (c createSpec) body(i int) (name string, body []byte) {
	n := c.first + i
	opt := map[string]any{}
	if c.autoInit {
		name = initName(n)
		opt["auto_init"], opt["license"], opt["gitignores"] = true, "MIT", "Go"
	} else {
		name = seedName(n)
		if n%10 == 0 {
			opt["description"] = fmt.Sprintf("Repository %d, seeded by make bench", n)
		}
	}
	opt["name"] = name
	body, _ = json.Marshal(opt)
	return name, body
}

// api is a client of the server under test, signed in with one token.
type api struct {
	base, token string
	client      *http.Client
}

func newAPI(base, token string, conns int) *api {
	return &api{base: base, token: token, client: newClient(conns, time.Minute)}
}

// do sends one request and returns the status, the response headers and the body.
func (a *api) do(ctx context.Context, method, path string, body []byte) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "token "+a.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data, err
}

// createRepos runs spec: its clients each create the next repository as soon
// as their previous creation was answered, until spec.count were sent. Each
// request's latency is one sample; an answer other than 201 counts as an
// error answer. progress, when not nil, is called after every 1,000 creations,
// from the clients' goroutines.
func createRepos(ctx context.Context, a *api, spec createSpec, progress func(done int)) LoadResult {
	results := make([]workerResult, spec.clients)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range results {
		wg.Add(1)
		go func(res *workerResult) {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= spec.count {
					return
				}
				name, body := spec.body(i)
				t0 := time.Now()
				code, _, data, err := a.do(ctx, http.MethodPost, "/api/v1/user/repos", body)
				res.lat = append(res.lat, time.Since(t0))
				switch {
				case err != nil:
					res.errors++
					if res.firstError == "" {
						res.firstError = name + ": " + err.Error()
					}
				case code != http.StatusCreated:
					res.non2xx++
					if res.firstError == "" {
						res.firstError = fmt.Sprintf("%s: HTTP %d: %.200s", name, code, data)
					}
				}
				if d := done.Add(1); progress != nil && d%1000 == 0 {
					progress(int(d))
				}
			}
		}(&results[w])
	}
	wg.Wait()
	cfg := LoadConfig{URL: a.base + "/api/v1/user/repos", Method: http.MethodPost, Connections: spec.clients}
	return summarise(cfg, time.Since(start), results)
}

// topicEvery is how often a seeded repository gets topics: one in a hundred.
const topicEvery = 100

// addTopics gives every topicEvery-th seeded repository two topics and
// returns how many it tagged.
func addTopics(ctx context.Context, a *api, seeded int) (int, error) {
	n := 0
	for i := 0; i < seeded; i += topicEvery {
		code, _, data, err := a.do(ctx, http.MethodPut, "/api/v1/repos/admin/"+seedName(i)+"/topics",
			[]byte(`{"topics":["bench","seeded"]}`))
		if err != nil {
			return n, err
		}
		if code != http.StatusNoContent {
			return n, fmt.Errorf("topics of %s: HTTP %d: %.200s", seedName(i), code, data)
		}
		n++
	}
	return n, nil
}

// countRepos returns how many repositories the token's user may see: the
// X-Total-Count of a search without a keyword.
func countRepos(ctx context.Context, a *api) (int64, error) {
	code, h, data, err := a.do(ctx, http.MethodGet, "/api/v1/repos/search?limit=1", nil)
	if err != nil {
		return 0, err
	}
	if code != http.StatusOK {
		return 0, fmt.Errorf("counting repositories: HTTP %d: %.200s", code, data)
	}
	return strconv.ParseInt(h.Get("X-Total-Count"), 10, 64)
}

// Seed is what the suite created before the repository loads.
type Seed struct {
	// Total is the site's repository count when the loads ran, from the server.
	Total int64
	// Topics is how many repositories were given topics, Described how many a description.
	Topics, Described int
}

// prepareRepos runs the measured creations and the seeding, adding their
// runs to rep, and fills rep.Seed.
func prepareRepos(ctx context.Context, cfg SuiteConfig, srv *server, a *api, rep *Report, log io.Writer,
	say func(string, ...any)) error {
	var mu sync.Mutex
	progress := func(spec createSpec, start time.Time) func(int) {
		return func(done int) {
			mu.Lock()
			defer mu.Unlock()
			el := time.Since(start)
			say("  %d of %d created in %s (%.0f/s)", done, spec.count, el.Round(time.Second), float64(done)/el.Seconds())
		}
	}
	run := func(spec createSpec, quiet bool) error {
		c := cfg
		if !quiet {
			c.QuietWait = 0
		}
		what := fmt.Sprintf("%d repositories, %s", spec.count, plural(spec.clients, "client"))
		r, err := measureRun(ctx, c, srv, spec.name, driverLoadgen, what, say, func() (LoadResult, time.Duration, error) {
			cpu0 := selfCPU()
			res := createRepos(ctx, a, spec, progress(spec, time.Now()))
			return res, selfCPU() - cpu0, ctx.Err()
		})
		if err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, r)
		fmt.Fprint(log, indent(r.Result.String()))
		return nil
	}
	rep.Creates = createSpecs(cfg.CreateN)
	for _, spec := range rep.Creates {
		if err := run(spec, true); err != nil {
			return err
		}
	}
	have, err := countRepos(ctx, a)
	if err != nil {
		return err
	}
	seed := seedSpec(have, int64(cfg.Repos))
	if seed.count > 0 {
		if err := run(seed, false); err != nil {
			return err
		}
		rep.Seed.Described = (seed.count + 9) / 10
		if rep.Seed.Topics, err = addTopics(ctx, a, seed.count); err != nil {
			return err
		}
	}
	if rep.Seed.Total, err = countRepos(ctx, a); err != nil {
		return err
	}
	say("the site holds %d repositories", rep.Seed.Total)
	return nil
}

// plural is "1 client", "4 clients".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
