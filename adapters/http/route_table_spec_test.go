package http

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/permission"
)

// The spec's rows (docs/spec-routes.tsv, written by cmd/specroutes from the
// spec) and three hand-kept lists that may only shrink:
//   - spec-routes-missing.tsv: spec routes the table does not have yet;
//   - spec-routes-differences.tsv: rows whose scopes or access codes differ
//     from the spec for a stated reason (mostly rules the spec gives that no
//     access code enforces yet), and spec rows another table row serves;
//   - spec-routes-extra.tsv: table rows the spec does not list, with why.
const (
	specRoutesFile      = "../../docs/spec-routes.tsv"
	specMissingFile     = "../../docs/spec-routes-missing.tsv"
	specDifferencesFile = "../../docs/spec-routes-differences.tsv"
	specExtraFile       = "../../docs/spec-routes-extra.tsv"
)

// TestRouteTableMatchesSpec compares the route table with the spec row by
// row: every spec route exists or is on the missing list (and no route on
// that list exists), every existing row has the spec's scope categories and
// access codes or a recorded difference (and no recorded difference is
// stale), and every row the spec lacks is on the extra list.
func TestRouteTableMatchesSpec(t *testing.T) {
	spec := readTSV(t, specRoutesFile, 5)
	missing := map[string]bool{}
	for _, f := range readTSV(t, specMissingFile, 2) {
		missing[f[0]+" "+f[1]] = true
	}
	type difference struct{ spec, table string }
	differences := map[string]difference{} // key: method, path, field
	for _, f := range readTSV(t, specDifferencesFile, 6) {
		differences[f[0]+" "+f[1]+" "+f[2]] = difference{f[3], f[4]}
	}
	extra := map[string]bool{}
	for _, f := range readTSV(t, specExtraFile, 3) {
		extra[f[0]+" "+f[1]] = true
	}

	table := map[string]route{} // key: method and normalised path
	for _, rt := range (&Server{}).routes() {
		key := rt.method + " " + routeShape(rt.path)
		if _, dup := table[key]; dup {
			t.Errorf("route table has %s %s twice", rt.method, rt.path)
		}
		table[key] = rt
	}

	usedMissing, usedDiff, served := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range spec {
		method, path, scopes, access := f[0], f[1], f[2], f[3]
		id := method + " " + path
		rt, ok := table[method+" "+routeShape(path)]
		if !ok {
			// A spec route another row serves (R/git/commits/{sha}.diff by
			// R/git/commits/{sha}) names that row in the differences.
			if d, ok := differences[id+" row"]; ok {
				usedDiff[id+" row"] = true
				by, _ := strings.CutPrefix(d.table, "served by ")
				if _, ok := table[routeKey(by)]; !ok {
					t.Errorf("%s: the differences say it is %s, but the table has no such row", id, d.table)
				}
				served[routeKey(by)] = true
				continue
			}
			if !missing[id] {
				t.Errorf("the route table lacks %s (spec %s); add the route, or add %q to %s", id, f[4], method+"\t"+path, specMissingFile)
			}
			usedMissing[id] = true
			continue
		}
		served[method+" "+routeShape(path)] = true
		if missing[id] {
			t.Errorf("%s now exists in the route table; remove it from %s", id, specMissingFile)
			usedMissing[id] = true
		}
		for _, c := range []struct{ field, spec, table string }{
			{"scopes", scopes, tableScopes(rt)},
			{"access", access, tableAccess(rt)},
		} {
			if c.spec == "?" { // the core reference states none
				continue
			}
			key := id + " " + c.field
			d, recorded := differences[key]
			usedDiff[key] = recorded
			switch {
			case c.spec == c.table && recorded:
				t.Errorf("%s %s: now %s as the spec says; remove it from %s", id, c.field, c.table, specDifferencesFile)
			case c.spec == c.table:
			case !recorded:
				t.Errorf("%s %s: spec %s, table %s; fix the row, or record %q in %s", id, c.field, c.spec, c.table,
					strings.Join([]string{method, path, c.field, c.spec, c.table, "why"}, "\t"), specDifferencesFile)
			case d != difference{c.spec, c.table}:
				t.Errorf("%s %s: spec %s, table %s, but %s records spec %s, table %s; update it", id, c.field, c.spec, c.table, specDifferencesFile, d.spec, d.table)
			}
		}
	}
	for id := range missing {
		if !usedMissing[id] {
			t.Errorf("%s is on %s but is not a spec route; remove it", id, specMissingFile)
		}
	}
	for key := range differences {
		if !usedDiff[key] {
			t.Errorf("%q is on %s but compares with nothing; remove it", key, specDifferencesFile)
		}
	}
	for key, rt := range table {
		id := rt.method + " " + rt.path
		switch {
		case served[key] && extra[id]:
			t.Errorf("%s is a spec route; remove it from %s", id, specExtraFile)
		case !served[key] && !extra[id]:
			t.Errorf("the spec lacks %s; remove the route, or add %q with the reason to %s", id, rt.method+"\t"+rt.path+"\twhy", specExtraFile)
		}
	}
	for id := range extra {
		if _, ok := table[routeKey(id)]; !ok {
			t.Errorf("%s is on %s but not in the route table; remove it", id, specExtraFile)
		}
	}
}

// TestRouteShape pins the path normalisation the comparison relies on.
func TestRouteShape(t *testing.T) {
	for in, want := range map[string]string{
		R + "/contents/{filepath:.*}":                           "/repos/{}/{}/contents/{*}",
		"/repos/{username}/{reponame}/contents/{*}":             "/repos/{}/{}/contents/{*}",
		R + "/{ball_type:tarball|zipball|bundle}/{ref:.*}":      "/repos/{}/{}/{}/{*}",
		"/repos/{owner}/{repo}/git/commits/{sha}.diff":          "/repos/{}/{}/git/commits/{}.diff",
		"/users/{username}/tokens/{token}":                      "/users/{}/tokens/{}",
		"/admin/users/{username}/badges":                        "/admin/users/{}/badges",
		"/packages/{username}/{type}/{name}/-/link/{repo_name}": "/packages/{}/{}/{}/-/link/{}",
	} {
		if got := routeShape(in); got != want {
			t.Errorf("routeShape(%q) = %q, want %q", in, got, want)
		}
	}
}

var pathParam = regexp.MustCompile(`\{([^{}:]*)(?::([^{}]*))?\}`)

// routeShape is a path with its parameters' names dropped: a parameter
// that takes the rest of the path ({*} in the spec, {name:.*} in the table)
// is {*}, any other {}.
func routeShape(path string) string {
	return pathParam.ReplaceAllStringFunc(path, func(p string) string {
		m := pathParam.FindStringSubmatch(p)
		if m[1] == "*" || m[2] == ".*" || m[2] == ".+" {
			return "{*}"
		}
		return "{}"
	})
}

// routeKey is the table key of "METHOD path".
func routeKey(id string) string {
	method, path, _ := strings.Cut(id, " ")
	return method + " " + routeShape(path)
}

func tableScopes(rt route) string {
	names := make([]string, len(rt.scopes))
	for i, c := range rt.scopes {
		names[i] = string(c)
	}
	return joinSet(names)
}

// tableAccess writes a row's access codes as the spec TSV does: each code
// in permission.Code's spelling, sorted.
func tableAccess(rt route) string {
	var codes []string
	for _, part := range strings.Split(rt.access, ",") {
		part = strings.TrimSpace(part)
		if part == "" || part == "-" {
			continue
		}
		if c, err := permission.ParseCode(part); err == nil {
			part = c.String()
		}
		codes = append(codes, part)
	}
	return joinSet(codes)
}

func joinSet(items []string) string {
	if len(items) == 0 {
		return "-"
	}
	sort.Strings(items)
	return strings.Join(items, ",")
}

// readTSV reads a data file's rows after its header line; each row has at
// least n tab-separated fields.
func readTSV(t *testing.T, name string, n int) [][]string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i == 0 || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < n {
			t.Fatalf("%s line %d: %d fields, want %d", name, i+1, len(f), n)
		}
		out = append(out, f)
	}
	return out
}
