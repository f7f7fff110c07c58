package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
)

// load parses args with freshly registered flags and loads the configuration
// with env as the whole environment.
func load(t *testing.T, args []string, env map[string]string) (Config, error) {
	t.Helper()
	fs := flag.NewFlagSet("depot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fv := RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return LoadConfig(fs, fv, func(k string) string { return env[k] })
}

func writeTOML(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "depot.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDefaults(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.Listen, "127.0.0.1:3000")
	is.Equal(cfg.BaseURL, "http://127.0.0.1:3000")
	wd, err := os.Getwd()
	is.NoErr(err)
	is.Equal(cfg.DataDir, filepath.Join(wd, "data")) // made absolute against the working directory
	is.Equal(cfg.DB, "")
	is.Equal(cfg.LogLevel, "info")
	is.Equal(cfg.LogFormat, "auto")
	is.Equal(cfg.File, "")
	is.Equal(cfg.SiteSettings(), site.Defaults()) // every site default comes from the domain
}

func TestPrecedence(t *testing.T) {
	file := `
listen = "127.0.0.1:4000"
log_level = "warn"
data_dir = "/from/file"

[site]
default_paging_num = 10
enable_stars = false
cors_allowed_origins = ["https://file.example"]
name = "File"
`
	type layers struct {
		file bool
		env  map[string]string
		args []string
	}
	fileEnv := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name  string
		in    layers
		check func(is *is.I, c Config)
	}{
		{"defaults only", layers{}, func(is *is.I, c Config) {
			is.Equal(c.Listen, "127.0.0.1:3000")
			is.Equal(c.LogLevel, "info")
			is.Equal(c.Site.DefaultPagingNum, 30)
			is.Equal(c.Site.EnableStars, true)
			is.Equal(len(c.Site.CORSAllowedOrigins), 0)
			is.Equal(c.Site.Name, "Depot")
		}},
		{"file over defaults", layers{file: true}, func(is *is.I, c Config) {
			is.Equal(c.Listen, "127.0.0.1:4000")
			is.Equal(c.LogLevel, "warn")
			is.Equal(c.DataDir, "/from/file")
			is.Equal(c.Site.DefaultPagingNum, 10)
			is.Equal(c.Site.EnableStars, false)
			is.Equal(c.Site.CORSAllowedOrigins, []string{"https://file.example"})
			is.Equal(c.Site.Name, "File")
			is.Equal(c.Site.MaxResponseItems, 50) // untouched keys keep defaults
		}},
		{"env over file", layers{file: true, env: fileEnv(
			"DEPOT_LISTEN", "127.0.0.1:5000",
			"DEPOT_LOG_LEVEL", "debug",
			"DEPOT_DEFAULT_PAGING_NUM", "20",
			"DEPOT_ENABLE_STARS", "true",
			"DEPOT_CORS_ALLOWED_ORIGINS", "https://env.example",
		)}, func(is *is.I, c Config) {
			is.Equal(c.Listen, "127.0.0.1:5000")
			is.Equal(c.LogLevel, "debug")
			is.Equal(c.DataDir, "/from/file") // env did not set it
			is.Equal(c.Site.DefaultPagingNum, 20)
			is.Equal(c.Site.EnableStars, true)
			is.Equal(c.Site.CORSAllowedOrigins, []string{"https://env.example"})
			is.Equal(c.Site.Name, "File")
		}},
		{"flags over env", layers{file: true, env: fileEnv(
			"DEPOT_LISTEN", "127.0.0.1:5000",
			"DEPOT_LOG_LEVEL", "debug",
			"DEPOT_DEFAULT_PAGING_NUM", "20",
			"DEPOT_ENABLE_STARS", "true",
			"DEPOT_SITE_NAME", "Env",
		), args: []string{
			"--listen", "127.0.0.1:6000",
			"--log-level=error",
			"--default-paging-num", "5",
			"--enable-stars=false",
			"--cors-allowed-origins", "https://flag.example,https://other.example",
		}}, func(is *is.I, c Config) {
			is.Equal(c.Listen, "127.0.0.1:6000")
			is.Equal(c.BaseURL, "http://127.0.0.1:6000") // derived after all layers
			is.Equal(c.LogLevel, "error")
			is.Equal(c.Site.DefaultPagingNum, 5)
			is.Equal(c.Site.EnableStars, false)
			is.Equal(c.Site.CORSAllowedOrigins, []string{"https://flag.example", "https://other.example"})
			is.Equal(c.Site.Name, "Env") // no flag given: env still wins over file
			is.Equal(c.DataDir, "/from/file")
		}},
		{"unset flags do not reset", layers{file: true, args: []string{"--db", "postgres://u@h/d"}}, func(is *is.I, c Config) {
			is.Equal(c.Listen, "127.0.0.1:4000")
			is.Equal(c.Site.EnableStars, false) // --enable-stars defaults to true but was not given
			is.Equal(c.DB, "postgres://u@h/d")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			env := map[string]string{}
			for k, v := range tc.in.env {
				env[k] = v
			}
			if tc.in.file {
				env["DEPOT_CONFIG"] = writeTOML(t, file)
			}
			cfg, err := load(t, tc.in.args, env)
			is.NoErr(err)
			tc.check(is, cfg)
		})
	}
}

func TestConfigFileChoice(t *testing.T) {
	is := is.New(t)
	envFile := writeTOML(t, `listen = "127.0.0.1:4001"`)
	flagFile := writeTOML(t, `listen = "127.0.0.1:4002"`)

	cfg, err := load(t, nil, map[string]string{"DEPOT_CONFIG": envFile})
	is.NoErr(err)
	is.Equal(cfg.Listen, "127.0.0.1:4001")
	is.Equal(cfg.File, envFile)

	cfg, err = load(t, []string{"--config", flagFile}, map[string]string{"DEPOT_CONFIG": envFile})
	is.NoErr(err)
	is.Equal(cfg.Listen, "127.0.0.1:4002")
	is.Equal(cfg.File, flagFile)

	_, err = load(t, []string{"--config", filepath.Join(t.TempDir(), "missing.toml")}, nil)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "missing.toml"))
}

func TestUnknownTOMLKey(t *testing.T) {
	is := is.New(t)
	path := writeTOML(t, `
listne = "127.0.0.1:4000"
[site]
enable_starz = true
[bogus]
x = 1
`)
	_, err := load(t, nil, map[string]string{"DEPOT_CONFIG": path})
	is.True(err != nil)
	msg := err.Error()
	is.True(strings.Contains(msg, "listne"))
	is.True(strings.Contains(msg, "site.enable_starz"))
	is.True(strings.Contains(msg, "bogus"))
	is.True(strings.Contains(msg, path))
}

func TestTOMLWrongType(t *testing.T) {
	is := is.New(t)
	path := writeTOML(t, "[site]\nenable_stars = \"yes\"\n")
	_, err := load(t, nil, map[string]string{"DEPOT_CONFIG": path})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "enable_stars"))
}

func TestEnvBooleans(t *testing.T) {
	for raw, want := range map[string]bool{"true": true, "TRUE": true, "1": true, "t": true, "false": false, "0": false, "F": false} {
		t.Run(raw, func(t *testing.T) {
			is := is.New(t)
			cfg, err := load(t, nil, map[string]string{"DEPOT_REQUIRE_SIGNIN_VIEW": raw, "DEPOT_ENABLE_WEBHOOKS": raw})
			is.NoErr(err)
			is.Equal(cfg.Site.RequireSignInView, want)
			is.Equal(cfg.Site.EnableWebhooks, want)
		})
	}
}

func TestBadEnvValues(t *testing.T) {
	is := is.New(t)
	_, err := load(t, nil, map[string]string{
		"DEPOT_ENABLE_STARS":       "maybe",
		"DEPOT_DEFAULT_PAGING_NUM": "ten",
	})
	is.True(err != nil)
	msg := err.Error()
	is.True(strings.Contains(msg, `DEPOT_ENABLE_STARS: "maybe" is not a boolean`))
	is.True(strings.Contains(msg, "DEPOT_DEFAULT_PAGING_NUM")) // both problems are reported
}

func TestFlags(t *testing.T) {
	is := is.New(t)

	cfg, err := load(t, []string{"--require-signin-view", "--accept-query-token", "--enable-webhooks=0"}, nil)
	is.NoErr(err)
	is.True(cfg.Site.RequireSignInView) // a bare boolean flag means true
	is.True(cfg.Site.AcceptQueryToken)
	is.True(!cfg.Site.EnableWebhooks)

	fs := flag.NewFlagSet("depot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	RegisterFlags(fs)
	err = fs.Parse([]string{"--enable-stars=maybe"})
	is.True(err != nil) // bad values fail at parse time
	is.True(strings.Contains(err.Error(), "enable-stars"))
	err = fs.Parse([]string{"--max-body-bytes", "lots"})
	is.True(err != nil)
}

func TestAllFlagsAndEnvNames(t *testing.T) {
	is := is.New(t)
	fs := flag.NewFlagSet("depot", flag.ContinueOnError)
	RegisterFlags(fs)
	for _, name := range []string{
		"config", "listen", "base-url", "data-dir", "db", "log-level", "log-format",
		"require-signin-view", "disable-users-page", "restrict-exploring", "enable-webhooks", "enable-stars",
		"require-email-confirmation", "accept-query-token", "cors-allowed-origins", "cors-allowed-headers",
		"max-body-bytes", "default-paging-num", "max-response-items", "password-min-length", "site-name",
	} {
		if fs.Lookup(name) == nil {
			t.Errorf("flag --%s is not registered", name)
		}
	}
	env := map[string]bool{}
	for _, s := range settings() {
		env[s.envName()] = true
	}
	for _, name := range []string{"DEPOT_LISTEN", "DEPOT_BASE_URL", "DEPOT_DATA_DIR", "DEPOT_DB", "DEPOT_LOG_LEVEL",
		"DEPOT_LOG_FORMAT", "DEPOT_REQUIRE_SIGNIN_VIEW", "DEPOT_CORS_ALLOWED_ORIGINS", "DEPOT_SITE_NAME", "DEPOT_PASSWORD_MIN_LENGTH"} {
		is.True(env[name])
	}

	// Every setting's TOML key really is decoded from a file.
	var b strings.Builder
	var sect string
	for _, s := range settings() {
		key := s.key
		if dot := strings.LastIndexByte(s.key, '.'); dot >= 0 {
			if table := s.key[:dot]; sect != table {
				b.WriteString("[" + table + "]\n")
				sect = table
			}
			key = s.key[dot+1:]
		}
		b.WriteString(key + " = ")
		var scratch Config
		switch s.field(&scratch).(type) {
		case *string:
			b.WriteString(`""`)
		case *bool:
			b.WriteString("false")
		case *int, *int64:
			b.WriteString("1")
		case *[]string:
			b.WriteString("[]")
		}
		b.WriteString("\n")
	}
	var cfg Config
	is.NoErr(decodeFile(writeTOML(t, b.String()), &cfg))
}

func TestLists(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, map[string]string{
		"DEPOT_CORS_ALLOWED_ORIGINS": " https://a.example , https://b.example:8443,, ",
		"DEPOT_CORS_ALLOWED_HEADERS": "X-Custom,X-Other",
	})
	is.NoErr(err)
	is.Equal(cfg.Site.CORSAllowedOrigins, []string{"https://a.example", "https://b.example:8443"})
	is.Equal(cfg.Site.CORSAllowedHeaders, []string{"X-Custom", "X-Other"})
	s := cfg.SiteSettings()
	is.Equal(s.CORSAllowedOrigins, []string{"https://a.example", "https://b.example:8443"})
	s.CORSAllowedOrigins[0] = "changed"
	is.Equal(cfg.Site.CORSAllowedOrigins[0], "https://a.example") // SiteSettings copies

	// A flag with an empty value clears a list the file set.
	path := writeTOML(t, "[site]\ncors_allowed_origins = [\"*\"]\n")
	cfg, err = load(t, []string{"--cors-allowed-origins="}, map[string]string{"DEPOT_CONFIG": path})
	is.NoErr(err)
	is.Equal(len(cfg.Site.CORSAllowedOrigins), 0)
}

func TestBaseURL(t *testing.T) {
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "http://127.0.0.1:3000"},
		{[]string{"--listen", "127.0.0.1:8080"}, nil, "http://127.0.0.1:8080"},
		{[]string{"--listen", ":8080"}, nil, "http://localhost:8080"},
		{[]string{"--listen", "0.0.0.0:8080"}, nil, "http://localhost:8080"},
		{[]string{"--listen", "[::]:8080"}, nil, "http://localhost:8080"},
		{[]string{"--listen", "[::1]:8080"}, nil, "http://[::1]:8080"},
		{nil, map[string]string{"DEPOT_LISTEN": "git.local:80"}, "http://git.local:80"},
		{[]string{"--base-url", "https://git.example.com/"}, nil, "https://git.example.com"},
		{[]string{"--base-url", "https://example.com/git//"}, nil, "https://example.com/git"},
		{[]string{"--listen", ":9000"}, map[string]string{"DEPOT_BASE_URL": "https://env.example/"}, "https://env.example"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			is := is.New(t)
			cfg, err := load(t, tc.args, tc.env)
			is.NoErr(err)
			is.Equal(cfg.BaseURL, tc.want)
			is.Equal(cfg.SiteSettings().BaseURL, tc.want)
		})
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		edit func(c *Config)
		key  string
	}{
		"log level":             {func(c *Config) { c.LogLevel = "verbose" }, "log_level"},
		"log format":            {func(c *Config) { c.LogFormat = "xml" }, "log_format"},
		"memory limit":          {func(c *Config) { c.MemoryLimit = -1 }, "memory_limit"},
		"listen":                {func(c *Config) { c.Listen = "3000" }, "listen"},
		"base url scheme":       {func(c *Config) { c.BaseURL = "ftp://x" }, "base_url"},
		"base url relative":     {func(c *Config) { c.BaseURL = "/git" }, "base_url"},
		"data dir":              {func(c *Config) { c.DataDir = "" }, "data_dir"},
		"db":                    {func(c *Config) { c.DB = "mysql://u:secret@h/d" }, "db"},
		"paging zero":           {func(c *Config) { c.Site.DefaultPagingNum = 0 }, "site.default_paging_num"},
		"max items negative":    {func(c *Config) { c.Site.MaxResponseItems = -1 }, "site.max_response_items"},
		"max below default":     {func(c *Config) { c.Site.DefaultPagingNum = 60 }, "site.max_response_items"},
		"body size":             {func(c *Config) { c.Site.MaxBodyBytes = 0 }, "site.max_body_bytes"},
		"change files zero":     {func(c *Config) { c.Site.MaxChangeFiles = 0 }, "site.max_change_files"},
		"password length":       {func(c *Config) { c.Site.PasswordMinLength = 0 }, "site.password_min_length"},
		"origin trailing /":     {func(c *Config) { c.Site.CORSAllowedOrigins = []string{"https://a.example/"} }, "site.cors_allowed_origins"},
		"origin without scheme": {func(c *Config) { c.Site.CORSAllowedOrigins = []string{"a.example"} }, "site.cors_allowed_origins"},
		"header with space":     {func(c *Config) { c.Site.CORSAllowedHeaders = []string{"X Bad"} }, "site.cors_allowed_headers"},
		"allowed hosts CIDR":    {func(c *Config) { c.AllowedHosts = "loopback,10.0.0.0/33" }, "allowed_hosts"},
		"allowed hosts URL":     {func(c *Config) { c.AllowedHosts = "https://git.example" }, "allowed_hosts"},
		"webhook attempts zero": {func(c *Config) { c.Site.WebhookMaxAttempts = 0 }, "site.webhook_max_attempts"},
		"webhook attempts neg":  {func(c *Config) { c.Site.WebhookMaxAttempts = -3 }, "site.webhook_max_attempts"},
		"webhook timeout zero":  {func(c *Config) { c.Site.WebhookTimeout = 0 }, "site.webhook_timeout"},
		"webhook timeout neg":   {func(c *Config) { c.Site.WebhookTimeout = -1 }, "site.webhook_timeout"},
		"webhook retry zero":    {func(c *Config) { c.Site.WebhookRetryDelay = 0 }, "site.webhook_retry_delay"},
		"webhook retry neg":     {func(c *Config) { c.Site.WebhookRetryDelay = -10 }, "site.webhook_retry_delay"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			c := DefaultConfig()
			c.BaseURL = "http://127.0.0.1:3000"
			is.NoErr(c.Validate())
			tc.edit(&c)
			err := c.Validate()
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tc.key+":"))
			is.True(!strings.Contains(err.Error(), "secret")) // DSNs are never echoed
		})
	}

	is := is.New(t)
	c := DefaultConfig()
	c.BaseURL = "http://x"
	c.Site.CORSAllowedOrigins = []string{"*", "http://localhost:5173"}
	c.AllowedHosts = "external, loopback, private, 10.0.0.0/8, fd00::/8, *.corp.example"
	c.DB = "postgresql://depot@db/depot?sslmode=disable"
	is.NoErr(c.Validate())

	// All problems are reported together.
	c.LogLevel, c.Site.DefaultPagingNum = "loud", -1
	err := c.Validate()
	is.True(strings.Contains(err.Error(), "log_level"))
	is.True(strings.Contains(err.Error(), "site.default_paging_num"))

	// LoadConfig validates too, and level names are case-insensitive.
	_, err = load(t, []string{"--log-level", "LOUD"}, nil)
	is.True(err != nil)
	cfg, err := load(t, []string{"--log-level", "WARN", "--log-format", "JSON"}, nil)
	is.NoErr(err)
	is.Equal(cfg.LogLevel, "warn")
	is.Equal(cfg.LogFormat, "json")
}

func TestLogHelpers(t *testing.T) {
	is := is.New(t)
	c := DefaultConfig()
	is.Equal(c.SlogLevel().String(), "INFO")
	c.LogLevel = "debug"
	is.Equal(c.SlogLevel().String(), "DEBUG")
	is.True(!c.LogJSON(true))
	is.True(c.LogJSON(false))
	c.LogFormat = "json"
	is.True(c.LogJSON(true))
	c.LogFormat = "text"
	is.True(!c.LogJSON(false))
}

// configTable renders the key table of docs/configuration.md from settings().
func configTable() string {
	var b strings.Builder
	b.WriteString("| TOML key | Flag | Environment | Default | Meaning |\n")
	b.WriteString("|---|---|---|---|---|\n")
	b.WriteString("| — | `--config` | `DEPOT_CONFIG` | (none) | TOML configuration file to read |\n")
	def := DefaultConfig()
	for _, s := range settings() {
		d := s.docDefault
		if d == "" {
			if d = formatField(s.field(&def)); d == "" {
				d = "empty"
			} else {
				d = "`" + d + "`"
			}
		}
		b.WriteString("| `" + s.key + "` | `--" + s.flag + "` | `" + s.envName() + "` | " + d + " | " +
			strings.ReplaceAll(s.usage, "|", `\|`) + " |\n")
	}
	return b.String()
}

// TestConfigDocs keeps docs/configuration.md in step with the code. Run with
// DEPOT_UPDATE_DOCS=1 to rewrite the table.
func TestConfigDocs(t *testing.T) {
	const path = "../../docs/configuration.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)(<!-- BEGIN KEYS -->\n).*?(<!-- END KEYS -->)`)
	if !re.Match(raw) {
		t.Fatalf("%s has no <!-- BEGIN KEYS --> ... <!-- END KEYS --> section", path)
	}
	table := configTable()
	updated := re.ReplaceAllFunc(raw, func(m []byte) []byte {
		sub := re.FindSubmatch(m)
		return append(append(append([]byte{}, sub[1]...), table...), sub[2]...)
	})
	if string(updated) == string(raw) {
		return
	}
	if os.Getenv("DEPOT_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, updated, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date; run DEPOT_UPDATE_DOCS=1 go test ./cmd/depot -run TestConfigDocs", path)
}

// TestRelativePathsMadeAbsolute: a relative data directory from any source
// comes back absolute against the working directory at start-up (git runs
// inside each bare repository, where a relative path names something else).
func TestRelativePathsMadeAbsolute(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	cases := map[string]struct {
		args []string
		env  map[string]string
		file string
	}{
		"flag": {args: []string{"--data-dir", "data"}},
		"env":  {env: map[string]string{"DEPOT_DATA_DIR": "./data"}},
		"file": {file: "data_dir = \"data/../data\"\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			args := tc.args
			if tc.file != "" {
				args = append(args, "--config", writeTOML(t, tc.file))
			}
			cfg, err := load(t, args, tc.env)
			is.NoErr(err)
			is.Equal(cfg.DataDir, filepath.Join(wd, "data"))
			is.True(cfg.File == "" || filepath.IsAbs(cfg.File))
		})
	}
}

// TestMaxChangeFilesSources reads site.max_change_files from each source
// into the site settings the contents writes obey.
func TestMaxChangeFilesSources(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().MaxChangeFiles, 2000)

	cfg, err = load(t, nil, map[string]string{"DEPOT_CONFIG": writeTOML(t, "[site]\nmax_change_files = 300\n")})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().MaxChangeFiles, 300)

	cfg, err = load(t, nil, map[string]string{"DEPOT_MAX_CHANGE_FILES": "40"})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().MaxChangeFiles, 40)

	cfg, err = load(t, []string{"--max-change-files", "7"}, map[string]string{"DEPOT_MAX_CHANGE_FILES": "40"})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().MaxChangeFiles, 7)

	_, err = load(t, []string{"--max-change-files", "0"}, nil)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "site.max_change_files:"))
}
