package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// writeGit is the Git section of the targets: clone and push against their
// file:// floor, and the memory of concurrent clones.
func writeGit(w printer, rep *Report) {
	gb := rep.Git
	if gb == nil {
		return
	}
	w("Git over smart HTTP against the server this suite started (`bin/depot`, its push hooks running\n")
	w("`bin/depot-hook`), each operation against the same one by the same `git` over `file://` — git with no\n")
	w("network, no HTTP and no hooks, the floor: for the clone, `git clone --no-local` of the server's own bare\n")
	w("repository (git's upload-pack over a pipe). The repository: %s commits on `main`, each rewriting one of\n",
		thousands(gitCommits))
	w("%d files with %s bytes of random data (written with `git fast-import`, %s), %s objects in %s of packs\n",
		gitFiles, thousands(gitFileSize), secs(gb.Build), thousands(float64(gb.Objects)), mb(gb.PackBytes))
	if gb.Housekept > 0 {
		w("once pushed and packed with its bitmap by the server's housekeeping (%s after the push). ", secs(gb.Housekept))
	} else {
		w("once pushed (the server's housekeeping had not packed it with a bitmap). ")
	}
	w("Medians of %d clones\nand %d pushes, HTTP and `file://` taking turns, after an uncounted ",
		gb.Iterations*gitCloneTurns, gb.Iterations)
	w("clone of each:\n\n")
	w("| Git, %s commits / %s | Depot over HTTP | git over `file://` | Ratio | Target | Gitea 1.27.3, for scale | Verdict |\n",
		thousands(gitCommits), mb(gb.PackBytes))
	w("|---|---|---|---|---|---|---|\n")
	row := func(name string, h, f []time.Duration, target float64, floor, gitea string) {
		if len(h) == 0 || len(f) == 0 {
			w("| %s | not run | not run | | ≤ %s× %s | %s | **missed** (not run) |\n", name, ratioText(target), floor, gitea)
			return
		}
		r := ratio(h, f)
		w("| %s | %s | %s | %.2f× | ≤ %s× %s | %s | %s |\n", name, secs(median(h)), secs(median(f)), r,
			ratioText(target), floor, gitea, verdict(r <= target))
	}
	row("`git clone` (floor: `git clone --no-local`), its answer kept by the server", gb.CloneHTTP, gb.CloneFile,
		targetCloneRatio, "floor", giteaGitClone)
	row("`git clone`, a request new to the server (its git packs)", gb.CloneFirst, gb.CloneFile, targetCloneRatio,
		"floor", giteaGitClone)
	row("`git push` into an empty repository", gb.PushHTTP, gb.PushFile, targetPushRatio, "`file://`", giteaGitPush)
	w("\nThe server keeps its answer to a clone asked for a second time (`repository.pack_cache_bytes`) and sends\n")
	w("it from the file to the same request over the same refs from then on, as CI systems cloning one commit\n")
	w("over and over ask: the first row. In the second, each clone asks with a server option of its own, so that\n")
	w("its request is new to the server, whose git packs on the socket as for the first clone after a push.\n")
	if len(gb.CloneHTTPCPU) > 0 && len(gb.CloneFileCPU) > 0 {
		w("\nCPU time (user+system) of every process of a clone, median: over HTTP %s (the client's git, the server\n",
			secs(median(gb.CloneHTTPCPU)))
		w("and the git it ran), `git clone --no-local` %s (both ends): %.2f×. Unlike the times above, it does not\n",
			secs(median(gb.CloneFileCPU)), ratio(gb.CloneHTTPCPU, gb.CloneFileCPU))
		w("grow with what other processes take of the CPUs.")
		if len(gb.CloneFirstCPU) > 0 {
			w(" A clone new to the server: %s, %.2f×.", secs(median(gb.CloneFirstCPU)),
				ratio(gb.CloneFirstCPU, gb.CloneFileCPU))
		}
		w("\n")
	}
	if len(gb.CloneReplay) > 0 && len(gb.CloneFile) > 0 && len(gb.CloneHTTP) > 0 && len(gb.CloneFirst) > 0 {
		replay, floor, depot, first := median(gb.CloneReplay), median(gb.CloneFile), median(gb.CloneHTTP),
			median(gb.CloneFirst)
		w("\nThe same clone served from a recording of the server's three answers, replayed from memory by the\n")
		w("benchmark with no other work (no git, no pack made, nothing read from disk), taking turns with the\n")
		w("three above: %s, %.2f× the floor (CPU %s). No server answers sooner than one that replays its answer,\n",
			secs(replay), ratio(gb.CloneReplay, gb.CloneFile), secs(median(gb.CloneReplayCPU)))
		w("so this is the lowest ratio any server can reach here. Depot's clone from a kept answer takes %s more\n",
			secs(depot-replay))
		w("than it (%.1f%% of the floor): its handling and reading the file. A clone new to it takes %s more\n",
			100*float64(depot-replay)/float64(floor), secs(first-replay))
		w("(%.1f%% of the floor): making the pack (git upload-pack and pack-objects, as in the floor) and Depot's\n",
			100*float64(first-replay)/float64(floor))
		w("handling.\n")
	}
	c := gb.Concurrent
	w("\n| Concurrent clones | Clones | Time | Server's peak RSS | Its own memory (RssAnon) at most | Its git processes at most | Target | Verdict |\n")
	w("|---|---|---|---|---|---|---|---|\n")
	if c.Clones == 0 {
		w("| %d clones of the repository at once | not run | | | | | < 200 MB | **missed** (not run) |\n", gitConcurrent)
	} else {
		w("| %d clones of the repository at once | %d (%d failed) | %s | %s | %s | %s | < 200 MB | %s |\n", gitConcurrent,
			c.Clones, c.Failures, secs(c.Elapsed), mb(c.PeakRSS), mb(c.PeakAnon), mb(c.ChildrenRSS),
			verdict(c.Failures == 0 && c.PeakRSS > 0 && c.PeakRSS < targetGitRSS))
	}
	w("\nSamples (seconds), in order:\n\n")
	for _, s := range []struct {
		name string
		d    []time.Duration
	}{{"clone, HTTP", gb.CloneHTTP}, {"clone, HTTP, new request", gb.CloneFirst}, {"clone, `--no-local`", gb.CloneFile},
		{"clone, recording", gb.CloneReplay}, {"clone CPU, HTTP", gb.CloneHTTPCPU},
		{"clone CPU, HTTP, new request", gb.CloneFirstCPU}, {"clone CPU, `--no-local`", gb.CloneFileCPU},
		{"clone CPU, recording", gb.CloneReplayCPU}, {"push, HTTP", gb.PushHTTP}, {"push, file://", gb.PushFile}} {
		parts := make([]string, len(s.d))
		for i, d := range s.d {
			parts[i] = fmt.Sprintf("%.3f", d.Seconds())
		}
		w("- %s: %s\n", s.name, orValue(strings.Join(parts, ", "), "none"))
	}
	w("\nHow the %d CPUs were used (cores busy on average) during each phase: by the server with the git\n", max(rep.Machine.CPUs, 1))
	w("processes it ran, by the benchmark's own git (the clients, and both ends of a `file://` operation), and\n")
	w("by other processes, which make the samples noisier the more they take:\n\n")
	w("| Phase | Time | Server and its git | Benchmark's git | Other processes |\n|---|---|---|---|---|\n")
	for _, p := range []struct {
		name string
		c    GitCPU
	}{{"clones", gb.Clones}, {"pushes (repository creations included)", gb.Pushes}, {"concurrent clones", gb.Many}} {
		if p.c.Elapsed == 0 {
			continue
		}
		w("| %s | %s | %.2f | %.2f | %.2f |\n", p.name, secs(p.c.Elapsed), cores(p.c.Server, p.c.Elapsed),
			cores(p.c.Client, p.c.Elapsed), cores(p.c.Other(), p.c.Elapsed))
	}
	how := "`VmHWM` from `/proc/<pid>/status`, reset through `/proc/<pid>/clear_refs` just before the clones"
	if !c.HWMReset {
		how = "the largest `VmRSS` sampled every 50 ms (the kernel refused to reset `VmHWM`)"
	}
	w("\nThe server's peak RSS is %s. RSS counts the\n", how)
	w("mapped files too (the executable, pack files libgit2 has mapped), hence the column with `RssAnon` alone,\n")
	w("sampled every 50 ms. The concurrent clones each ask with a server option of their own, so that the server's\n")
	w("git packs for every one. The git processes the server runs for the clones (`git upload-pack`, `git pack-objects`)\n")
	w("are separate processes: their RSS, summed and sampled every 50 ms, is the column before the target. Each\n")
	w("push goes into a repository created through the API just before it (not timed); its `file://` floor into\n")
	w("one `git init --bare` made. HTTP goes first in the odd samples and second in the even ones. Each pushed\n")
	w("repository is deleted through the API after its sample (not timed), before the housekeeping its push\n")
	w("queued (`git gc`, `repository.housekeeping_delay` later) is due, so that no sample runs beside a git gc.\n")
	if gb.Err != "" {
		w("\n**The Git benchmarks stopped early: %s**\n", gb.Err)
	}
	w("\n")
}

// ratioText renders a target ratio with as many decimals as it needs: 1.2, 1.05.
func ratioText(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }
