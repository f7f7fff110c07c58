package main

import (
	"runtime/debug"
	"testing"

	"github.com/matryer/is"
)

// TestMemoryLimitSources checks memory_limit's default and sources, and that
// applyMemoryLimit sets the runtime's soft limit from it unless GOMEMLIMIT
// is set or the key is 0.
func TestMemoryLimitSources(t *testing.T) {
	is := is.New(t)
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })

	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.MemoryLimit, int64(128<<20)) // the default

	cfg, err = load(t, []string{"--memory-limit", "201326592"}, nil)
	is.NoErr(err)
	is.Equal(cfg.MemoryLimit, int64(192<<20))
	cfg, err = load(t, nil, map[string]string{"DEPOT_MEMORY_LIMIT": "0"})
	is.NoErr(err)
	is.Equal(cfg.MemoryLimit, int64(0))

	none := func(string) string { return "" }
	debug.SetMemoryLimit(prev)
	applyMemoryLimit(Config{MemoryLimit: 0}, none)
	is.Equal(debug.SetMemoryLimit(-1), prev) // 0: left alone
	applyMemoryLimit(Config{MemoryLimit: 128 << 20}, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	is.Equal(debug.SetMemoryLimit(-1), prev) // GOMEMLIMIT wins
	applyMemoryLimit(Config{MemoryLimit: 100 << 20}, none)
	is.Equal(debug.SetMemoryLimit(-1), int64(100<<20))
}
