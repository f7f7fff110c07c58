package http_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/site"
)

// benchBlobSize is the size of the blobs the transfer benchmarks move:
// 64 MiB unless DEPOT_BENCH_BLOB_MB says otherwise (1024 for the 1 GB
// figure the registries are held to).
func benchBlobSize(b *testing.B) int64 {
	b.Helper()
	mb := int64(64)
	if raw := os.Getenv("DEPOT_BENCH_BLOB_MB"); raw != "" {
		v, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || v <= 0 {
			b.Fatalf("DEPOT_BENCH_BLOB_MB=%q: a positive number of MiB expected", raw)
		}
		mb = v
	}
	return mb << 20
}

// patternBlock is what a benchmark blob repeats: 1 MiB of random bytes.
var patternBlock = func() []byte {
	r := rand.New(rand.NewPCG(1, 2))
	p := make([]byte, 1<<20)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}()

// patternReader yields n bytes of patternBlock repeated, without holding
// them: a client streaming a large file from disk.
type patternReader struct{ left, off int64 }

func newPatternReader(n int64) *patternReader { return &patternReader{left: n} }

func (p *patternReader) Read(buf []byte) (int, error) {
	if p.left == 0 {
		return 0, io.EOF
	}
	n := copy(buf[:min(int64(len(buf)), p.left)], patternBlock[p.off:])
	p.off = (p.off + int64(n)) % int64(len(patternBlock))
	p.left -= int64(n)
	return n, nil
}

// patternDigest is the sha256 digest of n pattern bytes.
func patternDigest(n int64) string {
	h := sha256.New()
	_, _ = io.Copy(h, newPatternReader(n))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// rssBytes is the process's resident set (VmRSS), 0 where /proc is not.
func rssBytes() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// memWatch samples the resident set and the Go heap while a transfer runs
// and reports how far each grew above where it started.
type memWatch struct {
	stop             chan struct{}
	done             sync.WaitGroup
	rss0, heap0      int64
	cpu0             time.Duration
	peakRSS, peakHep atomic.Int64
}

func heapInUse() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

func startMemWatch() *memWatch {
	runtime.GC()
	w := &memWatch{stop: make(chan struct{}), rss0: rssBytes(), heap0: heapInUse(), cpu0: cpuTime()}
	w.peakRSS.Store(w.rss0)
	w.peakHep.Store(w.heap0)
	w.done.Add(1)
	go func() {
		defer w.done.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				if r := rssBytes(); r > w.peakRSS.Load() {
					w.peakRSS.Store(r)
				}
				if h := heapInUse(); h > w.peakHep.Load() {
					w.peakHep.Store(h)
				}
			}
		}
	}()
	return w
}

// report stops the sampling and reports the growths in MiB, and the
// process's CPU time per transfer (client and server together: on a
// loaded machine the transfer waits for a core, and MB/s says more about
// the machine than about the registry; size / cpu-s-op is what one core
// would carry).
func (w *memWatch) report(b *testing.B) {
	close(w.stop)
	w.done.Wait()
	b.ReportMetric((cpuTime()-w.cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(w.peakRSS.Load()-w.rss0)/(1<<20), "rss-growth-MB")
	b.ReportMetric(float64(w.peakHep.Load()-w.heap0)/(1<<20), "heap-growth-MB")
}

// registryBench is a loopback server of the whole service with an
// administrator's write:package token.
type registryBench struct {
	a      benchApp
	srv    *httptest.Server
	client *http.Client
	token  string
	// version numbers the generic registry's uploads, each a new version.
	version int
}

func newRegistryBench(b *testing.B) *registryBench {
	b.Helper()
	// Uploads are bounded by max_body_bytes (32 MiB by default) as well as
	// package_max_bytes: the benchmark's blobs need more.
	a := newBenchAppWith(b, func(s *site.Settings) { s.MaxBodyBytes = 1 << 40 })
	_, secret, err := a.app.Users.Tokens().Create(context.Background(), a.admin.ID, "bench-packages",
		[]string{"write:package", "read:user"})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.app.HTTP)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: loopbackConns, MaxIdleConnsPerHost: loopbackConns,
		DisableCompression: true}}
	b.Cleanup(client.CloseIdleConnections)
	return &registryBench{a: a, srv: srv, client: client, token: secret}
}

// do sends one request with the token (or the given Authorization) and
// drains the answer, failing unless it has the status want.
func (r *registryBench) do(b *testing.B, method, path string, body io.Reader, size int64, auth string, want int) http.Header {
	b.Helper()
	req, err := http.NewRequest(method, r.srv.URL+path, body)
	if err != nil {
		b.Fatal(err)
	}
	if body != nil {
		req.ContentLength = size
	}
	if auth == "" {
		auth = "token " + r.token
	}
	req.Header.Set("Authorization", auth)
	if method == http.MethodPut && strings.Contains(path, "/manifests/") {
		req.Header.Set("Content-Type", packages.MediaTypeOCIManifest)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != want {
		b.Fatalf("%s %s: %d (%d bytes)", method, path, resp.StatusCode, n)
	}
	if method == http.MethodGet && want == http.StatusOK && size > 0 && n != size {
		b.Fatalf("%s %s: %d bytes, %d expected", method, path, n, size)
	}
	return resp.Header
}

// bearer gets a registry bearer token for the administrator's token.
func (r *registryBench) bearer(b *testing.B) string {
	b.Helper()
	req, err := http.NewRequest(http.MethodGet, r.srv.URL+"/v2/token", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.SetBasicAuth(r.a.admin.Name, r.token)
	resp, err := r.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Token == "" {
		b.Fatalf("GET /v2/token: %d %v", resp.StatusCode, err)
	}
	return "Bearer " + out.Token
}

// BenchmarkRegistryBlobTransfer streams one blob (64 MiB; DEPOT_BENCH_BLOB_MB
// sets another size, 1024 for the 1 GB figure) through the registries over
// loopback, one transfer at a time: the generic registry's PUT and GET, and
// the container registry's blob upload (POST, PATCH with the bytes, PUT
// with the digest; and monolithic, POST ?digest=) and GET. MB/s is the
// throughput; rss-growth-MB and heap-growth-MB are how far the process's
// resident set and Go heap grew above where they were before the transfers
// (sampled every 20 ms): what is buffered instead of streamed.
func BenchmarkRegistryBlobTransfer(b *testing.B) {
	r := newRegistryBench(b)
	size := benchBlobSize(b)
	digest := patternDigest(size)
	bearer := r.bearer(b)
	const generic = "/api/packages/admin/generic/bench"
	b.Run("generic-put", func(b *testing.B) {
		b.SetBytes(size)
		w := startMemWatch()
		for b.Loop() {
			r.version++
			r.do(b, http.MethodPut, fmt.Sprintf("%s/1.0.%d/blob.bin", generic, r.version), newPatternReader(size), size, "", http.StatusCreated)
		}
		w.report(b)
	})
	r.do(b, http.MethodPut, generic+"/2.0.0/blob.bin", newPatternReader(size), size, "", http.StatusCreated)
	b.Run("generic-get", func(b *testing.B) {
		b.SetBytes(size)
		w := startMemWatch()
		for b.Loop() {
			r.do(b, http.MethodGet, generic+"/2.0.0/blob.bin", nil, size, "", http.StatusOK)
		}
		w.report(b)
	})
	const image = "/v2/admin/bench"
	b.Run("oci-upload", func(b *testing.B) {
		b.SetBytes(size)
		w := startMemWatch()
		for b.Loop() {
			h := r.do(b, http.MethodPost, image+"/blobs/uploads/", nil, 0, bearer, http.StatusAccepted)
			loc := h.Get("Location")
			r.do(b, http.MethodPatch, loc, newPatternReader(size), size, bearer, http.StatusAccepted)
			r.do(b, http.MethodPut, loc+"?digest="+digest, nil, 0, bearer, http.StatusCreated)
		}
		w.report(b)
	})
	b.Run("oci-upload-monolithic", func(b *testing.B) {
		b.SetBytes(size)
		w := startMemWatch()
		for b.Loop() {
			r.do(b, http.MethodPost, image+"/blobs/uploads/?digest="+digest, newPatternReader(size), size, bearer, http.StatusCreated)
		}
		w.report(b)
	})
	b.Run("oci-get", func(b *testing.B) {
		b.SetBytes(size)
		w := startMemWatch()
		for b.Loop() {
			r.do(b, http.MethodGet, image+"/blobs/"+digest, nil, size, bearer, http.StatusOK)
		}
		w.report(b)
	})
}

// reportRate is deferred around a request benchmark: it reports the
// requests per second achieved and the process's CPU time per request
// (client and server together), and the rate that CPU time would allow
// on every core of the machine (cpu-bound-req/s): on a machine other
// processes load, the first says how much CPU was had, the last what the
// registry costs.
func reportRate(b *testing.B) func() {
	cpu0 := cpuTime()
	return func() {
		if b.N == 0 {
			return
		}
		perOp := (cpuTime() - cpu0).Seconds() / float64(b.N)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		b.ReportMetric(perOp*1e6, "cpu-us/op")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0))/perOp, "cpu-bound-req/s")
	}
}

// benchNpmVersions is how many versions BenchmarkRegistryNpmDocument's
// package has.
const benchNpmVersions = 200

// seedNpmPackage publishes versions 1.0.0 … of an npm package through the
// package use cases, each with a package.json as npm sends it (a
// description, a readme, a dozen dependencies) and a small tarball, and
// points latest at the last.
func seedNpmPackage(b *testing.B, r *registryBench, name string, n int) {
	b.Helper()
	ctx := context.Background()
	deps := map[string]string{}
	for d := range 12 {
		deps[fmt.Sprintf("dependency-%02d", d)] = fmt.Sprintf("^%d.2.3", d)
	}
	for i := range n {
		version := fmt.Sprintf("1.%d.0", i)
		meta, err := json.Marshal(map[string]any{"name": name, "version": version,
			"description": "A package the benchmark publishes", "license": "MIT", "main": "index.js",
			"readme": strings.Repeat("Some words of its readme. ", 40), "dependencies": deps,
			"repository": map[string]string{"type": "git", "url": "https://example.com/bench.git"}})
		if err != nil {
			b.Fatal(err)
		}
		tarball := bytes.Repeat([]byte{byte(i)}, 2048)
		_, err = r.a.app.Packages.Publish(ctx, apppkgs.Upload{Owner: r.a.admin, Creator: r.a.admin,
			Type: packages.TypeNpm, Name: name, Version: version, Filename: name + "-" + version + ".tgz",
			Metadata: string(meta), NewVersion: true, Tags: []string{"latest"}, Body: bytes.NewReader(tarball)})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegistryNpmDocument is GET /api/packages/{owner}/npm/{name},
// what `npm install` reads, for a package of 200 versions with a token:
// p50-ms and p99-ms are its latency, from every P at once, without the
// network ("handler") and over loopback keep-alive connections
// ("loopback").
func BenchmarkRegistryNpmDocument(b *testing.B) {
	r := newRegistryBench(b)
	seedNpmPackage(b, r, "bench-lib", benchNpmVersions)
	const path = "/api/packages/admin/npm/bench-lib"
	h := http.Header{"Authorization": {"token " + r.token}}
	b.Run("handler", func(b *testing.B) {
		defer reportRate(b)()
		benchLatency(b, r.a.app.HTTP, path, h)
	})
	b.Run("loopback", func(b *testing.B) {
		defer reportRate(b)()
		benchLoopback(b, r.a.app.HTTP, path, h)
	})
}

// BenchmarkRegistryManifestPull is GET /v2/{owner}/{image}/manifests/{tag}
// with a bearer token from /v2/token, as docker pull asks it, for an image
// pushed through the registry (a config and a layer): req/s over loopback
// keep-alive connections from every P, and without the network.
func BenchmarkRegistryManifestPull(b *testing.B) {
	r := newRegistryBench(b)
	bearer := r.bearer(b)
	const image = "/v2/admin/bench"
	push := func(content []byte) (string, int) {
		sum := sha256.Sum256(content)
		digest := "sha256:" + hex.EncodeToString(sum[:])
		r.do(b, http.MethodPost, image+"/blobs/uploads/?digest="+digest, bytes.NewReader(content), int64(len(content)), bearer, http.StatusCreated)
		return digest, len(content)
	}
	cfgDigest, cfgSize := push([]byte(`{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}`))
	layerDigest, layerSize := push(bytes.Repeat([]byte("layer"), 4096))
	manifest, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": packages.MediaTypeOCIManifest,
		"config": map[string]any{"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cfgDigest, "size": cfgSize},
		"layers": []map[string]any{{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layerDigest, "size": layerSize}}})
	if err != nil {
		b.Fatal(err)
	}
	r.do(b, http.MethodPut, image+"/manifests/latest", bytes.NewReader(manifest), int64(len(manifest)), bearer, http.StatusCreated)
	const path = image + "/manifests/latest"
	h := http.Header{"Authorization": {bearer}, "Accept": {packages.MediaTypeOCIManifest}}
	b.Run("handler", func(b *testing.B) {
		defer reportRate(b)()
		benchHandler(b, r.a.app.HTTP, path, h)
	})
	b.Run("loopback", func(b *testing.B) {
		defer reportRate(b)()
		benchLoopback(b, r.a.app.HTTP, path, h)
	})
}
