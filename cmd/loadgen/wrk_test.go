package main

import (
	"context"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"
)

// The samples in testdata are real output of Debian's wrk 4.1.0 run against
// bin/depot on 127.0.0.1 with -t2 -c32 -d3s --latency.

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseWrk(t *testing.T) {
	is := is.New(t)
	// GET /api/v1/user with a valid token: every answer 200.
	r, err := parseWrk(readSample(t, "wrk-user-token.txt"))
	is.NoErr(err)
	is.Equal(r.Requests, int64(72509))
	is.Equal(r.Elapsed, 3010*time.Millisecond)
	is.Equal(r.RPS, 24065.05)
	is.Equal(r.P50, 1160*time.Microsecond)
	is.Equal(r.P90, 6310*time.Microsecond)
	is.Equal(r.P99, 17440*time.Microsecond)
	is.Equal(r.Max, 52160*time.Microsecond) // the thread stats' Max, not a percentile
	is.Equal(r.Errors, int64(0))
	is.Equal(r.Non2xx, int64(0))
	is.Equal(r.FirstError, "")
}

func TestParseWrkErrorAnswers(t *testing.T) {
	is := is.New(t)
	// A token the server refuses: every answer 401.
	r, err := parseWrk(readSample(t, "wrk-bad-token.txt"))
	is.NoErr(err)
	is.Equal(r.Requests, int64(72187))
	is.Equal(r.Non2xx, int64(72187))
	is.Equal(r.Errors, int64(0))
	is.Equal(r.FirstError, "wrk: Non-2xx or 3xx responses: 72187")
	is.True(!(Run{Result: r}).clean())
}

func TestParseWrkSocketErrors(t *testing.T) {
	is := is.New(t)
	// The server was stopped half-way through the run.
	r, err := parseWrk(readSample(t, "wrk-server-killed.txt"))
	is.NoErr(err)
	is.Equal(r.Requests, int64(80745))
	is.Equal(r.P50, 262*time.Microsecond) // "262.00us"
	is.Equal(r.P90, 2880*time.Microsecond)
	is.Equal(r.Errors, int64(0+32+229282+0)) // connect, read, write, timeout
	is.Equal(r.Non2xx, int64(0))
	is.True(!(Run{Result: r}).clean())
}

func TestParseWrkRejectsOtherOutput(t *testing.T) {
	is := is.New(t)
	_, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n")
	is.True(err != nil)
	// Without --latency there is no distribution to read percentiles from.
	_, err = parseWrk("  10 requests in 1.00s, 1.00KB read\nRequests/sec:     10.00\n")
	is.True(err != nil)
}

func TestWrkDuration(t *testing.T) {
	is := is.New(t)
	is.Equal(wrkDuration("837.00", "us"), 837*time.Microsecond)
	is.Equal(wrkDuration("1.35", "ms"), 1350*time.Microsecond)
	is.Equal(wrkDuration("2.00", "s"), 2*time.Second)
	is.Equal(wrkDuration("1.50", "m"), 90*time.Second)
}

func TestWrkArgs(t *testing.T) {
	is := is.New(t)
	args := wrkArgs(LoadConfig{
		URL: "http://127.0.0.1:3000/api/v1/user", Connections: 32, Duration: 10 * time.Second,
		Header: http.Header{"Authorization": {"token abc"}},
	})
	is.True(slices.Equal(args, []string{"-t2", "-c32", "-d10s", "--latency", "-H", "Authorization: token abc",
		"http://127.0.0.1:3000/api/v1/user"}))
}

func TestRunWrkLoopbackAddressesOnly(t *testing.T) {
	is := is.New(t)
	// Refused before wrk is started: the binary does not even need to exist.
	for _, u := range []string{"http://192.0.2.1/", "http://localhost:3000/", "http://example.com/"} {
		_, _, _, err := RunWrk(context.Background(), "/nonexistent/wrk", LoadConfig{URL: u, Connections: 1, Duration: time.Second})
		is.True(err != nil)
	}
	is.NoErr(checkLoopbackLiteral("http://127.0.0.1:3000/api/v1/version"))
	is.NoErr(checkLoopbackLiteral("http://[::1]:3000/"))
}
