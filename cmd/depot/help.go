package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// commandHelp is what `depot <command> --help` prints besides the flags.
type commandHelp struct {
	// name is the command as typed after "depot", e.g. "admin user list".
	name string
	// args is the synopsis after the flags placeholder, e.g. "USERNAME".
	args string
	// about says what the command does, in a sentence or two.
	about string
	// allConfig lists every configuration flag (serve); other commands list
	// the few that say where the data is and how to log, and point at serve
	// for the rest, which they accept too.
	allConfig bool
}

// dataFlags are the configuration flags that matter to every command: where
// the configuration and the data are, and how to log.
var dataFlags = []string{"data-dir", "db", "log-level", "log-format"}

// loadConfig parses a command's flags (its own, registered on fs before the
// call, plus the configuration flags) and returns the configuration. With
// -h or --help it prints the command's help to stdout and returns
// flag.ErrHelp, which main turns into exit status 0.
func loadConfig(fs *flag.FlagSet, h commandHelp, args []string, getenv func(string) string, stdout io.Writer) (Config, error) {
	var own []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { own = append(own, f) })
	fv := RegisterFlags(fs)
	// The flag package's own messages are replaced: help goes to stdout
	// below, and a parse error is returned for main to print once.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(stdout, h, own)
			return Config{}, flag.ErrHelp
		}
		return Config{}, fmt.Errorf("%w (see 'depot %s --help')", err, h.name)
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q (see 'depot %s --help')", fs.Arg(0), h.name)
	}
	return LoadConfig(fs, fv, getenv)
}

// writeHelp prints a command's synopsis, its own flags and the configuration
// flags, each with its default.
func writeHelp(w io.Writer, h commandHelp, own []*flag.Flag) {
	synopsis := "depot " + h.name + " [flags]"
	if h.args != "" {
		synopsis += " " + h.args
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, h.about)
	if len(own) > 0 {
		fmt.Fprint(w, "\nflags:\n")
		for _, f := range own {
			typ, usage := flag.UnquoteUsage(f)
			if !strings.HasSuffix(usage, "(required)") {
				def := f.DefValue
				if def == "" {
					def = "empty"
				}
				usage += " (default " + def + ")"
			}
			writeFlag(w, f.Name, typ, usage)
		}
	}
	fmt.Fprint(w, "\nconfiguration flags (each also a DEPOT_* variable or a key of the --config file; see docs/configuration.md):\n")
	writeFlag(w, configFlag, "file", "TOML configuration file (env "+configEnv+")")
	def := DefaultConfig()
	for _, s := range settings() {
		if !h.allConfig && !slices.Contains(dataFlags, s.flag) {
			continue
		}
		ptr := s.field(&def)
		typ := "string"
		switch ptr.(type) {
		case *bool:
			typ = ""
		case *int, *int64:
			typ = "int"
		case *[]string:
			typ = "list"
		}
		value := s.docDefault
		if value == "" {
			value = formatField(ptr)
		}
		if value == "" {
			value = "empty"
		}
		writeFlag(w, s.flag, typ, s.usage+" (default "+strings.ReplaceAll(value, "`", "")+"; env "+s.envName()+")")
	}
	if !h.allConfig {
		fmt.Fprint(w, "  ... and every other configuration flag of 'depot serve --help'\n")
	}
}

// writeFlag prints one flag the way the flag package does, with two dashes.
func writeFlag(w io.Writer, name, typ, usage string) {
	line := "  --" + name
	if typ != "" {
		line += " " + typ
	}
	fmt.Fprintf(w, "%s\n      %s\n", line, usage)
}
