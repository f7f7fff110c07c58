// Command specroutes extracts the spec's route rows (method, path, scope
// categories, access codes) from the core reference and the extended route
// catalogue into docs/spec-routes.tsv, which adapters/http's route table
// test compares the route table with. With -check it writes nothing and
// fails when the committed file differs from what the spec gives, so the
// data cannot drift from the spec.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// header is the TSV's first line, naming its columns.
const header = "method\tpath\tscopes\taccess\tsource"

func main() {
	spec := flag.String("spec", "../shared/spec", "directory holding core-reference.md and extended-catalogue.md")
	out := flag.String("out", "docs/spec-routes.tsv", "the TSV to write, or with -check to compare")
	check := flag.Bool("check", false, "compare with -out instead of writing it; exit 1 when they differ")
	flag.Parse()
	if err := run(*spec, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "specroutes:", err)
		os.Exit(1)
	}
}

func run(spec, out string, check bool) error {
	catalogue, err := os.ReadFile(filepath.Join(spec, "extended-catalogue.md"))
	if err != nil {
		return err
	}
	core, err := os.ReadFile(filepath.Join(spec, "core-reference.md"))
	if err != nil {
		return err
	}
	rows, err := Extract(string(catalogue), string(core))
	if err != nil {
		return err
	}
	want := Format(rows)
	if !check {
		return os.WriteFile(out, want, 0o644)
	}
	have, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	if !bytes.Equal(have, want) {
		return fmt.Errorf("%s differs from the spec in %s; run `go run ./cmd/specroutes -spec %s -out %s` and commit it", out, spec, spec, out)
	}
	return nil
}

// Format writes rows as the TSV: the header, then one row a line, in the
// spec's order.
func Format(rows []Row) []byte {
	var b strings.Builder
	b.WriteString(header + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join([]string{r.Method, r.Path, r.Scopes, r.Access, r.Source}, "\t") + "\n")
	}
	return []byte(b.String())
}
