package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzConfigFile fuzzes the TOML configuration file: it is refused with an
// error, or read to a configuration that validates, whose base URL has no
// trailing slash and whose every setting survives being written the way
// the flags show it and read back.
func FuzzConfigFile(f *testing.F) {
	for _, s := range []string{
		"listen = \"127.0.0.1:4000\"\nlog_level = \"WARN\"\n[site]\ndefault_paging_num = 10\nmax_response_items = 20\n",
		"base_url = \"https://git.example.com/\"\nallowed_hosts = \"loopback,10.0.0.0/8,*.example.com\"\n",
		"[site]\ncors_allowed_origins = [\"*\", \"https://a.example\"]\ncors_allowed_headers = [\"X-Req\"]\n",
		"unknown = 1\n", "listen = 3000\n", "[site\n", "db = \"mysql://x\"\n", "[site]\nmax_body_bytes = -1\n",
		"base_url = \"http://u:p@h\"\n", "log_format = \"json\"\nssh_listen = \":2222\"\n", "",
	} {
		f.Add(s)
	}
	path := filepath.Join(f.TempDir(), "depot.toml")
	f.Fuzz(func(t *testing.T, body string) {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(nil, nil, func(k string) string {
			if k == configEnv {
				return path
			}
			return ""
		})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config: ") {
				t.Fatalf("error %q does not say it is the configuration's", err)
			}
			return
		}
		checkLoaded(t, cfg)
	})
}

// FuzzConfigEnv fuzzes one DEPOT_* variable: refused with an error naming
// it, or read to a configuration that validates, and the value reads the
// same after being written back as a flag default would be.
func FuzzConfigEnv(f *testing.F) {
	for i, raw := range []string{"127.0.0.1:1", "http://h/", " 7 ", "true", "x", "a, b,,c", "-5", "9999999999999999999"} {
		f.Add(uint8(i), raw)
	}
	all := settings()
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		s := all[int(which)%len(all)]
		cfg, err := LoadConfig(nil, nil, func(k string) string {
			if k == s.envName() {
				return raw
			}
			return ""
		})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config: ") {
				t.Fatalf("error %q does not say it is the configuration's", err)
			}
			if strings.Contains(err.Error(), "environment") && !strings.Contains(err.Error(), s.envName()) {
				t.Fatalf("error %q does not name %s", err, s.envName())
			}
			return
		}
		checkLoaded(t, cfg)
	})
}

func checkLoaded(t *testing.T, cfg Config) {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("loaded configuration does not validate: %v", err)
	}
	if strings.HasSuffix(cfg.BaseURL, "/") || cfg.LogLevel != strings.ToLower(cfg.LogLevel) {
		t.Fatalf("base URL %q, log level %q", cfg.BaseURL, cfg.LogLevel)
	}
	_ = cfg.SiteSettings()
	for _, s := range settings() {
		shown := formatField(s.field(&cfg))
		back := cfg
		if err := setField(s.field(&back), shown); err != nil {
			t.Fatalf("%s shown as %q does not read back: %v", s.key, shown, err)
		}
		if again := formatField(s.field(&back)); again != shown {
			t.Fatalf("%s shown as %q reads back as %q", s.key, shown, again)
		}
		if _, isList := s.field(&cfg).(*[]string); !isList && !reflect.DeepEqual(back, cfg) {
			t.Fatalf("%s shown as %q reads back as another value", s.key, shown)
		}
	}
}
