package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// FlagValues holds what RegisterFlags put on a FlagSet, for LoadConfig to read
// after the set is parsed.
type FlagValues struct {
	config string
	byFlag map[string]*flagValue
}

// flagValue keeps a flag's raw text; LoadConfig parses it into the Config only
// when the flag was set, so that an unset flag never hides the file or env.
type flagValue struct {
	s      setting
	raw    string
	isBool bool
}

func (v *flagValue) String() string {
	if v == nil {
		return ""
	}
	return v.raw
}

// Set checks the value now, so that a bad flag fails at parse time with the
// flag package's usual message.
func (v *flagValue) Set(raw string) error {
	var scratch Config
	if err := setField(v.s.field(&scratch), raw); err != nil {
		return err
	}
	v.raw = raw
	return nil
}

// IsBoolFlag lets boolean keys be given as a bare --flag.
func (v *flagValue) IsBoolFlag() bool { return v.isBool }

// RegisterFlags registers --config and one flag per configuration key on fs.
// Call it before fs.Parse and pass the result to LoadConfig.
func RegisterFlags(fs *flag.FlagSet) *FlagValues {
	fv := &FlagValues{byFlag: map[string]*flagValue{}}
	fs.StringVar(&fv.config, configFlag, "", "TOML configuration `file` (env "+configEnv+")")
	def := DefaultConfig()
	for _, s := range settings() {
		ptr := s.field(&def)
		_, isBool := ptr.(*bool)
		v := &flagValue{s: s, isBool: isBool, raw: formatField(ptr)}
		usage := s.usage
		if s.docDefault != "" {
			// Backquotes in a usage string name the argument, so drop them.
			usage += " (default " + strings.ReplaceAll(s.docDefault, "`", "") + ")"
		}
		fv.byFlag[s.flag] = v
		fs.Var(v, s.flag, usage+" (env "+s.envName()+")")
	}
	return fv
}

// LoadConfig builds the configuration from the defaults, then the TOML file
// named by --config or DEPOT_CONFIG, then DEPOT_* variables read through
// getenv (nil reads none), then the flags of fs that were set on the command
// line. It then derives BaseURL from Listen if no source set it, drops its
// trailing slash, and returns Validate's verdict. Every problem found is
// reported at once. Paths come back absolute (see absPaths).
//
// An empty environment variable counts as unset; to clear a list that the
// file sets, pass the flag with an empty value.
func LoadConfig(fs *flag.FlagSet, fv *FlagValues, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	set := map[string]bool{}
	if fs != nil {
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	cfg := DefaultConfig()

	path := getenv(configEnv)
	if fv != nil && set[configFlag] {
		path = fv.config
	}
	if path != "" {
		if err := decodeFile(path, &cfg); err != nil {
			return Config{}, err
		}
		cfg.File = path
	}

	var errs []error
	for _, s := range settings() {
		raw := getenv(s.envName())
		if raw == "" {
			continue
		}
		if err := setField(s.field(&cfg), raw); err != nil {
			errs = append(errs, fmt.Errorf("config: environment %s: %w", s.envName(), err))
		}
	}

	if fv != nil {
		for _, s := range settings() {
			if !set[s.flag] {
				continue
			}
			if err := setField(s.field(&cfg), fv.byFlag[s.flag].raw); err != nil {
				errs = append(errs, fmt.Errorf("config: flag --%s: %w", s.flag, err))
			}
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}

	cfg.LogLevel = strings.ToLower(strings.TrimSpace(cfg.LogLevel))
	cfg.LogFormat = strings.ToLower(strings.TrimSpace(cfg.LogFormat))
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultBaseURL(cfg.Listen)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")

	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	if err := cfg.absPaths(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// absPaths makes every path setting absolute against the working directory
// of the start. Everything else on disk (the SQLite database, repositories,
// hooks, avatars, attachments, the SSH host key, the site key) is derived
// from the data directory; git runs inside each bare repository, where a
// relative path would name something else (a relative core.hooksPath makes
// git skip every hook without a word).
func (c *Config) absPaths() error {
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return fmt.Errorf("config: data_dir: %w", err)
	}
	c.DataDir = abs
	if c.File != "" {
		if c.File, err = filepath.Abs(c.File); err != nil {
			return fmt.Errorf("config: file: %w", err)
		}
	}
	return nil
}

// decodeFile reads the TOML file at path over cfg, refusing keys it does not
// know so that a typo is not silently ignored.
func decodeFile(path string, cfg *Config) error {
	md, err := toml.DecodeFile(path, cfg)
	if err != nil {
		return fmt.Errorf("config: file %s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return fmt.Errorf("config: file %s: unknown key(s) %s (see docs/configuration.md)", path, strings.Join(keys, ", "))
	}
	return nil
}

// defaultBaseURL is the URL a client on this machine would use: an unspecified
// or wildcard host becomes localhost, since "http://0.0.0.0:3000" is not a
// place a browser can go.
func defaultBaseURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
