package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestHousekeepingDelayConfig reads repository.housekeeping_delay in
// seconds, -1 for off, and refuses anything below -1.
func TestHousekeepingDelayConfig(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().HousekeepingDelay, 10*time.Second)

	cfg, err = load(t, []string{"--config", writeTOML(t, "[repository]\nhousekeeping_delay = 0\n")}, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().HousekeepingDelay, time.Duration(0))

	cfg, err = load(t, []string{"--housekeeping-delay", "-1"}, nil)
	is.NoErr(err)
	is.True(cfg.SiteSettings().HousekeepingDelay < 0)
	is.Equal(housekeepingDelayConfig(cfg.SiteSettings().HousekeepingDelay), -1)

	_, err = load(t, nil, map[string]string{"DEPOT_HOUSEKEEPING_DELAY": "-5"})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "repository.housekeeping_delay: must be -1 (off) or at least 0, got -5"))
}

// TestPackCacheBytesConfig reads repository.pack_cache_bytes (512 MiB
// unless set, 0 for off) and refuses a negative bound.
func TestPackCacheBytesConfig(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().PackCacheBytes, int64(512<<20))

	cfg, err = load(t, []string{"--config", writeTOML(t, "[repository]\npack_cache_bytes = 0\n")}, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().PackCacheBytes, int64(0))

	cfg, err = load(t, []string{"--pack-cache-bytes", "1048576"}, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().PackCacheBytes, int64(1<<20))

	_, err = load(t, nil, map[string]string{"DEPOT_PACK_CACHE_BYTES": "-1"})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "repository.pack_cache_bytes: must be 0 (off) or more, got -1"))
}
