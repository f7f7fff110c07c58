package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestCheckLoopback(t *testing.T) {
	cases := map[string]bool{
		"http://127.0.0.1:3000/api/v1/version": true,
		"http://127.8.9.10/":                   true,
		"http://localhost:8080/":               true,
		"http://LOCALHOST/":                    true,
		"http://[::1]:3000/":                   true,
		"https://127.0.0.1/":                   true,
		"http://10.0.0.1/":                     false,
		"http://192.168.1.1:3000/":             false,
		"http://example.com/":                  false,
		"http://localhost.example.com/":        false,
		"http://127.0.0.1.nip.io/":             false,
		"http://[::2]/":                        false,
		"http://0.0.0.0:3000/":                 false,
		"ftp://127.0.0.1/":                     false,
		"127.0.0.1:3000":                       false,
	}
	for raw, ok := range cases {
		t.Run(raw, func(t *testing.T) {
			is := is.New(t)
			err := CheckLoopback(raw)
			is.Equal(err == nil, ok)
		})
	}
}

func TestLoopbackOnlyDialer(t *testing.T) {
	is := is.New(t)
	is.NoErr(loopbackOnly("tcp", "127.0.0.1:80", nil))
	is.NoErr(loopbackOnly("tcp", "[::1]:80", nil))
	is.True(loopbackOnly("tcp", "93.184.216.34:80", nil) != nil) // a name that resolved elsewhere is refused
}

func TestPercentile(t *testing.T) {
	is := is.New(t)
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	is.Equal(percentile(d, 50), time.Duration(50))
	is.Equal(percentile(d, 99), time.Duration(99))
	is.Equal(percentile(d, 100), time.Duration(100))
	is.Equal(percentile(d[:1], 99), time.Duration(1))
	is.Equal(percentile(nil, 50), time.Duration(0))
}

func TestThousands(t *testing.T) {
	is := is.New(t)
	is.Equal(thousands(0), "0")
	is.Equal(thousands(999.4), "999")
	is.Equal(thousands(1234), "1,234")
	is.Equal(thousands(36000), "36,000")
	is.Equal(thousands(1234567.8), "1,234,568")
}

func TestRunLoadCountsAndStops(t *testing.T) {
	is := is.New(t)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Test") != "yes" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if n.Add(1)%2 == 0 {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()

	start := time.Now()
	res, err := RunLoad(context.Background(), LoadConfig{
		URL: srv.URL, Header: http.Header{"X-Test": {"yes"}}, Connections: 4, Duration: 300 * time.Millisecond,
	})
	is.NoErr(err)
	is.True(time.Since(start) < 5*time.Second) // stops by itself
	is.True(res.Requests > 0)
	is.Equal(res.Errors, int64(0))
	is.True(res.Non2xx > 0 && res.Non2xx < res.Requests) // every other answer is a 404
	is.True(res.P50 > 0 && res.P50 <= res.P99 && res.P99 <= res.Max)
	is.True(res.RPS > 0)
}

func TestRunLoadRefusesRemote(t *testing.T) {
	is := is.New(t)
	_, err := RunLoad(context.Background(), LoadConfig{URL: "http://192.0.2.1/", Connections: 1, Duration: time.Second})
	is.True(err != nil)
}

func TestRunLoadSendsMethodAndBody(t *testing.T) {
	is := is.New(t)
	var bad atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || string(b) != `{"a":1}` || r.ContentLength != int64(len(b)) {
			bad.Add(1)
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	res, err := RunLoad(context.Background(), LoadConfig{
		URL: srv.URL, Method: http.MethodPost, Body: `{"a":1}`, Connections: 2, Duration: 200 * time.Millisecond,
	})
	is.NoErr(err)
	is.True(res.Requests > 1)      // the request is reused, body and all
	is.Equal(bad.Load(), int64(0)) // every request carried the method and the whole body
	is.Equal(res.Non2xx+res.Errors, int64(0))
}

func TestCreateRepos(t *testing.T) {
	is := is.New(t)
	var mu sync.Mutex
	seen := map[string]map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var opt map[string]any
		if r.Method != http.MethodPost || r.URL.Path != "/api/v1/user/repos" || r.Header.Get("Authorization") != "token tok" ||
			json.NewDecoder(r.Body).Decode(&opt) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		name, _ := opt["name"].(string)
		mu.Lock()
		_, dup := seen[name]
		seen[name] = opt
		mu.Unlock()
		if dup || name == "bench-00007" {
			w.WriteHeader(http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	a := newAPI(srv.URL, "tok", 4)

	spec := createSpecs(5)[1] // auto_init, four clients, numbered after the first batch
	res := createRepos(context.Background(), a, spec, nil)
	is.Equal(res.Requests, int64(5))
	is.Equal(res.Errors+res.Non2xx, int64(0))
	is.Equal(res.Connections, 4)
	for i := 5; i < 10; i++ {
		opt := seen[initName(i)]
		is.True(opt != nil)                                                                       // every name sent once
		is.True(opt["auto_init"] == true && opt["license"] == "MIT" && opt["gitignores"] == "Go") // with the templates
	}

	var progress atomic.Int64
	seed := seedSpec(10, 2010)
	is.Equal(seed.count, 2000)
	res = createRepos(context.Background(), a, seed, func(int) { progress.Add(1) })
	is.Equal(res.Requests, int64(2000))
	is.Equal(res.Non2xx, int64(1)) // the refused bench-00007
	is.True(strings.HasPrefix(res.FirstError, "bench-00007: HTTP 409"))
	is.Equal(progress.Load(), int64(2))                                                // after the 1,000th and the 2,000th
	is.Equal(seen[seedName(10)]["description"], "Repository 10, seeded by make bench") // one in ten described
	is.Equal(seen[seedName(11)]["description"], nil)
	is.Equal(seen[seedName(11)]["auto_init"], nil)
	is.Equal(seedSpec(20, 10).count, 0) // never negative
}
