package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestGitBenchMedianAndRatio(t *testing.T) {
	is := is.New(t)
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	is.Equal(median(nil), time.Duration(0))
	is.Equal(median(ms(5, 1, 3)), 3*time.Millisecond)
	is.Equal(median(ms(4, 1, 3, 2)), 2500*time.Microsecond)
	is.Equal(ratio(ms(600, 500, 700), ms(500, 400, 600)), 1.2)
	is.Equal(ratio(ms(600), nil), 0.0)
}

func TestGitBenchTakesTurns(t *testing.T) {
	is := is.New(t)
	var order []string
	op := func(name string, d time.Duration) func() (time.Duration, error) {
		return func() (time.Duration, error) { order = append(order, name); return d, nil }
	}
	for i := range 3 {
		h, f, err := inTurn(i, op("http", time.Second), op("file", time.Millisecond))
		is.NoErr(err)
		is.Equal(h, time.Second)
		is.Equal(f, time.Millisecond)
	}
	is.Equal(strings.Join(order, " "), "http file file http http file")

	boom := errors.New("boom")
	_, _, err := inTurn(1, op("http", 0), func() (time.Duration, error) { return 0, boom })
	is.Equal(err, boom)
}

func TestGitBenchReport(t *testing.T) {
	is := is.New(t)
	s := time.Second
	rep := &Report{Machine: Machine{CPUs: 2}, Git: &GitBench{
		Iterations: 3, PackBytes: 21_700_000, Objects: 15000,
		CloneHTTP: []time.Duration{s / 2, s / 2, s / 2}, CloneFile: []time.Duration{s / 2, s / 2, s / 2},
		CloneHTTPCPU: []time.Duration{s, s, s}, CloneFileCPU: []time.Duration{s / 2, s, s},
		CloneReplay: []time.Duration{s / 4, s / 4, s / 4}, CloneReplayCPU: []time.Duration{s / 2, s / 2, s / 2},
		CloneFirst: []time.Duration{s, s, s}, CloneFirstCPU: []time.Duration{2 * s, 2 * s, 2 * s},
		PushHTTP: []time.Duration{s, s, s}, PushFile: []time.Duration{s / 2, s / 2, s / 2},
		Clones:     GitCPU{Elapsed: 3 * s, Machine: 3 * s, Server: s, Client: s},
		Concurrent: GitConcurrent{Clones: 20, Elapsed: 5 * s, PeakRSS: 95_000_000, PeakAnon: 60_000_000, HWMReset: true},
	}}
	out := filepath.Join(t.TempDir(), "benchmarks.md")
	is.NoErr(writeReport(out, rep))
	b, err := os.ReadFile(out)
	is.NoErr(err)
	md := string(b)
	is.True(strings.Contains(md, "| `git clone` (floor: `git clone --no-local`), its answer kept by the server | 0.500 s | 0.500 s | 1.00× | ≤ 1.05× floor | 1.07× its floor | met |"))
	is.True(strings.Contains(md, "| `git clone`, a request new to the server (its git packs) | 1.000 s | 0.500 s | 2.00× | ≤ 1.05× floor | 1.07× its floor | **missed** |"))
	is.True(strings.Contains(md, "A clone new to the server: 2.000 s, 2.00×."))
	is.True(strings.Contains(md, "- clone, HTTP, new request: 1.000, 1.000, 1.000\n"))
	is.True(strings.Contains(md, "over HTTP 1.000 s (the client's git, the server\nand the git it ran), `git clone --no-local` 1.000 s (both ends): 1.00×."))
	is.True(strings.Contains(md, "- clone CPU, `--no-local`: 0.500, 1.000, 1.000\n"))
	is.True(strings.Contains(md, "three above: 0.250 s, 0.50× the floor (CPU 0.500 s)."))
	is.True(strings.Contains(md, "Depot's clone from a kept answer takes 0.250 s more\nthan it (50.0% of the floor)"))
	is.True(strings.Contains(md, "A clone new to it takes 0.750 s more\n(150.0% of the floor)"))
	is.True(strings.Contains(md, "- clone, recording: 0.250, 0.250, 0.250\n"))
	is.True(strings.Contains(md, "| `git push` into an empty repository | 1.000 s | 0.500 s | 2.00× | ≤ 1.2× `file://` | ~0.8 s | **missed** |"))
	is.True(strings.Contains(md, "| 20 clones of the repository at once | 20 (0 failed) | 5.000 s | 95.0 MB | 60.0 MB |"))
	is.True(strings.Contains(md, "| clones | 3.000 s | 0.33 | 0.33 | 0.33 |"))

	// A run that stopped early says so, and what did not run is missed.
	rep.Git = &GitBench{Iterations: 3, Err: "git clone: exit status 128"}
	is.NoErr(writeReport(out, rep))
	b, err = os.ReadFile(out)
	is.NoErr(err)
	md = string(b)
	is.True(strings.Contains(md, "| `git clone` (floor: `git clone --no-local`), its answer kept by the server | not run | not run | | ≤ 1.05× floor | 1.07× its floor | **missed** (not run) |"))
	is.True(strings.Contains(md, "| `git push` into an empty repository | not run | not run | | ≤ 1.2× `file://` | ~0.8 s | **missed** (not run) |"))
	is.True(strings.Contains(md, "**The Git benchmarks stopped early: git clone: exit status 128**"))
}
