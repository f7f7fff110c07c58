package test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// assetBenchBytes is the asset issue 22's throughput target names: 1 GB.
const assetBenchBytes = 1 << 30

// BenchmarkAssetTransfer1GB uploads a 1 GiB release asset to a server
// running as its own process (so that its memory is its own) and downloads
// it again, on loopback, reporting each direction's MB/s and how far the
// server's resident memory rose above what it held before the upload
// (targets: ≥ 200 MB/s, < 20 MB). Run it with
// go test ./test -run '^$' -bench AssetTransfer1GB -benchtime 1x.
func BenchmarkAssetTransfer1GB(b *testing.B) {
	srv := assetBenchStart(b)
	client := &http.Client{}
	do := func(method, path string, body io.Reader, size int64) *http.Response {
		b.Helper()
		req, err := http.NewRequest(method, srv.url+path, body)
		if err != nil {
			b.Fatal(err)
		}
		req.SetBasicAuth("admin", srv.password)
		req.ContentLength = size
		if body != nil {
			req.Header.Set("Content-Type", "application/octet-stream")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	expect := func(resp *http.Response, status int) {
		b.Helper()
		if resp.StatusCode != status {
			msg, _ := io.ReadAll(resp.Body)
			b.Fatalf("%s %s: status %d, want %d: %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, msg)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	expect(do("POST", "/api/v1/user/repos", strings.NewReader(`{"name":"code","auto_init":true}`), -1), http.StatusCreated)
	resp := do("POST", "/api/v1/repos/admin/code/releases", strings.NewReader(`{"tag_name":"v1"}`), -1)
	var relID string
	if m := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(readClose(b, resp)); m != nil {
		relID = m[1]
	} else {
		b.Fatal("no release id")
	}
	// A small upload and download first, so that what one costs once
	// (buffers, pools, goroutines) is in the baseline.
	expect(do("POST", "/api/v1/repos/admin/code/releases/"+relID+"/assets?name=warm.zip",
		&zeroZip{left: 1 << 20}, 1<<20), http.StatusCreated)
	expect(do("GET", "/admin/code/releases/download/v1/warm.zip", nil, 0), http.StatusOK)

	var upMBs, downMBs, growthMB float64
	b.ResetTimer()
	for n := range b.N {
		name := "big" + strconv.Itoa(n) + ".zip"
		base := srv.rss(b)
		peak := srv.watchRSS()
		start := time.Now()
		expect(do("POST", "/api/v1/repos/admin/code/releases/"+relID+"/assets?name="+name,
			&zeroZip{left: assetBenchBytes}, assetBenchBytes), http.StatusCreated)
		up := time.Since(start)
		start = time.Now()
		resp := do("GET", "/admin/code/releases/download/v1/"+name, nil, 0)
		got, err := io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		down := time.Since(start)
		if err != nil || got != assetBenchBytes {
			b.Fatalf("downloaded %d bytes (%v), want %d", got, err, assetBenchBytes)
		}
		top := peak()
		upMBs = float64(assetBenchBytes) / 1e6 / up.Seconds()
		downMBs = float64(assetBenchBytes) / 1e6 / down.Seconds()
		growthMB = max(growthMB, float64(top-base)/1e6)
	}
	b.ReportMetric(upMBs, "upload-MB/s")
	b.ReportMetric(downMBs, "download-MB/s")
	b.ReportMetric(growthMB, "rss-growth-MB")
}

// zeroZip is an allowed upload (a zip by its magic) of left bytes made on
// the fly, so that the client holds none of it.
type zeroZip struct {
	left int64
	sent bool
}

func (z *zeroZip) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.left))
	clear(p[:n])
	if !z.sent {
		n = copy(p, "PK\x03\x04")
		z.sent = true
	}
	z.left -= int64(n)
	return n, nil
}

func readClose(b *testing.B, resp *http.Response) string {
	b.Helper()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return string(body)
}

// assetBenchServer is a depot process on a fresh data directory.
type assetBenchServer struct {
	url, password string
	pid           int
}

// assetBenchStart builds and starts depot with uploads of up to 2 GiB.
func assetBenchStart(b *testing.B) *assetBenchServer {
	b.Helper()
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "depot")
	build := exec.Command("go", "build", "-o", bin, "./cmd/depot")
	build.Dir = filepath.Dir(wd)
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	logPath := filepath.Join(b.TempDir(), "stderr.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--data-dir", b.TempDir(), "--listen", addr,
		"--max-body-bytes", strconv.Itoa(2<<30), "--attachment-max-bytes", strconv.Itoa(2<<30))
	cmd.Env = cliChildEnv(nil)
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	_ = logFile.Close()
	b.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for !cliAnswers(addr) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			b.Fatalf("depot did not start:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	log, _ := os.ReadFile(logPath)
	m := regexp.MustCompile(`administrator account created: username admin, password (\S+)`).FindSubmatch(log)
	if m == nil {
		b.Fatalf("no administrator password in the log:\n%s", log)
	}
	return &assetBenchServer{url: "http://" + addr, password: string(m[1]), pid: cmd.Process.Pid}
}

// rss is the server's resident memory in bytes.
func (s *assetBenchServer) rss(b *testing.B) int64 {
	b.Helper()
	n, err := procStatusBytes(s.pid, "VmRSS")
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// watchRSS samples the server's resident memory until the returned
// function is called, which answers the highest sample.
func (s *assetBenchServer) watchRSS() func() int64 {
	var mu sync.Mutex
	var top int64
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if n, err := procStatusBytes(s.pid, "VmRSS"); err == nil {
				mu.Lock()
				top = max(top, n)
				mu.Unlock()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		cancel()
		<-done
		mu.Lock()
		defer mu.Unlock()
		return top
	}
}

// procStatusBytes reads one "kB" field of /proc/<pid>/status in bytes.
func procStatusBytes(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		return kb << 10, err
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
