package http

import (
	"fmt"
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
	d := specData{
		spec:        readTSV(t, specRoutesFile, 5),
		missing:     readTSV(t, specMissingFile, 2),
		differences: readTSV(t, specDifferencesFile, 6),
		extra:       readTSV(t, specExtraFile, 3),
	}
	for _, p := range compareWithSpec(d, (&Server{}).routes()) {
		t.Error(p)
	}
}

// specData are the spec's rows and the three lists, as read from the TSVs
// (method, path, …).
type specData struct {
	spec, missing, differences, extra [][]string
}

// compareWithSpec lists every way the table and the data disagree.
func compareWithSpec(d specData, routes []route) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	missing := map[string]bool{}
	for _, f := range d.missing {
		missing[f[0]+" "+f[1]] = true
	}
	type difference struct{ spec, table string }
	differences := map[string]difference{} // key: method, path, field
	for _, f := range d.differences {
		differences[f[0]+" "+f[1]+" "+f[2]] = difference{f[3], f[4]}
	}
	extra := map[string]bool{}
	for _, f := range d.extra {
		extra[f[0]+" "+f[1]] = true
	}

	table := map[string]route{} // key: method and normalised path
	for _, rt := range routes {
		key := rt.method + " " + routeShape(rt.path)
		if _, dup := table[key]; dup {
			fail("route table has %s %s twice", rt.method, rt.path)
		}
		table[key] = rt
	}

	usedMissing, usedDiff, served := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range d.spec {
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
					fail("%s: the differences say it is %s, but the table has no such row", id, d.table)
				}
				served[routeKey(by)] = true
				continue
			}
			if !missing[id] {
				fail("the route table lacks %s (spec %s); add the route, or add %q to %s", id, f[4], method+"\t"+path, specMissingFile)
			}
			usedMissing[id] = true
			continue
		}
		served[method+" "+routeShape(path)] = true
		if missing[id] {
			fail("%s now exists in the route table; remove it from %s", id, specMissingFile)
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
				fail("%s %s: now %s as the spec says; remove it from %s", id, c.field, c.table, specDifferencesFile)
			case c.spec == c.table:
			case !recorded:
				fail("%s %s: spec %s, table %s; fix the row, or record %q in %s", id, c.field, c.spec, c.table,
					strings.Join([]string{method, path, c.field, c.spec, c.table, "why"}, "\t"), specDifferencesFile)
			case d != difference{c.spec, c.table}:
				fail("%s %s: spec %s, table %s, but %s records spec %s, table %s; update it", id, c.field, c.spec, c.table, specDifferencesFile, d.spec, d.table)
			}
		}
	}
	for id := range missing {
		if !usedMissing[id] {
			fail("%s is on %s but is not a spec route; remove it", id, specMissingFile)
		}
	}
	for key := range differences {
		if !usedDiff[key] {
			fail("%q is on %s but compares with nothing; remove it", key, specDifferencesFile)
		}
	}
	for key, rt := range table {
		id := rt.method + " " + rt.path
		switch {
		case served[key] && extra[id]:
			fail("%s is a spec route; remove it from %s", id, specExtraFile)
		case !served[key] && !extra[id]:
			fail("the spec lacks %s; remove the route, or add %q with the reason to %s", id, rt.method+"\t"+rt.path+"\twhy", specExtraFile)
		}
	}
	for id := range extra {
		if _, ok := table[routeKey(id)]; !ok {
			fail("%s is on %s but not in the route table; remove it", id, specExtraFile)
		}
	}
	sort.Strings(problems)
	return problems
}

// TestRouteTableComparison shows that each kind of disagreement between
// table and data is reported, and that agreement is not.
func TestRouteTableComparison(t *testing.T) {
	spec := [][]string{
		{"GET", "/repos/{owner}/{repo}/things/{id}", "repository", "RR(code)", "catalogue 4.5"},
		{"POST", "/repos/{owner}/{repo}/things", "repository", "NA,RW(code),T", "catalogue 4.5"},
		{"GET", "/repos/{owner}/{repo}/things/{id}.diff", "repository", "RR(code)", "catalogue 4.5"},
	}
	get := route{"GET", R + "/things/{thing}", scopes(catRepo), "RR(code)", nil}
	post := route{"POST", R + "/things", scopes(catRepo), "T,RW(code),NA", nil}
	served := []string{"GET", "/repos/{owner}/{repo}/things/{id}.diff", "row", "own row", "served by GET " + R + "/things/{thing}", "strips .diff"}
	for _, c := range []struct {
		name   string
		data   specData
		routes []route
		want   []string // substrings of the problems, one each
	}{
		{"agreement", specData{spec: spec, differences: [][]string{served}}, []route{get, post}, nil},
		{"missing, not listed", specData{spec: spec, differences: [][]string{served}}, []route{get},
			[]string{"lacks POST /repos/{owner}/{repo}/things"}},
		{"missing, listed", specData{spec: spec, differences: [][]string{served}, missing: [][]string{{"POST", "/repos/{owner}/{repo}/things"}}}, []route{get}, nil},
		{"listed but exists", specData{spec: spec, differences: [][]string{served}, missing: [][]string{{"POST", "/repos/{owner}/{repo}/things"}}}, []route{get, post},
			[]string{"POST /repos/{owner}/{repo}/things now exists"}},
		{"listed, not in the spec", specData{spec: spec, differences: [][]string{served}, missing: [][]string{{"GET", "/gone"}}}, []route{get, post},
			[]string{"GET /gone is on"}},
		{"access differs", specData{spec: spec, differences: [][]string{served}},
			[]route{get, {"POST", R + "/things", scopes(catRepo), "T,RW(code)", nil}},
			[]string{"access: spec NA,RW(code),T, table RW(code),T"}},
		{"scopes differ", specData{spec: spec, differences: [][]string{served}},
			[]route{get, {"POST", R + "/things", scopes(catIssue), "T,RW(code),NA", nil}},
			[]string{"scopes: spec repository, table issue"}},
		{"difference recorded", specData{spec: spec, differences: [][]string{served, {"POST", "/repos/{owner}/{repo}/things", "access", "NA,RW(code),T", "RW(code),T", "why"}}},
			[]route{get, {"POST", R + "/things", scopes(catRepo), "T,RW(code)", nil}}, nil},
		{"difference recorded, values changed", specData{spec: spec, differences: [][]string{served, {"POST", "/repos/{owner}/{repo}/things", "access", "NA,RW(code),T", "T", "why"}}},
			[]route{get, {"POST", R + "/things", scopes(catRepo), "T,RW(code)", nil}},
			[]string{"but ../../docs/spec-routes-differences.tsv records spec NA,RW(code),T, table T"}},
		{"difference recorded, now equal", specData{spec: spec, differences: [][]string{served, {"POST", "/repos/{owner}/{repo}/things", "access", "NA,RW(code),T", "RW(code),T", "why"}}},
			[]route{get, post}, []string{"now NA,RW(code),T as the spec says"}},
		{"served by a row the table lacks", specData{spec: spec, differences: [][]string{served}, missing: [][]string{{"GET", "/repos/{owner}/{repo}/things/{id}"}}},
			[]route{post}, []string{"but the table has no such row"}},
		{"extra, not listed", specData{spec: spec, differences: [][]string{served}},
			[]route{get, post, {"HEAD", R + "/things", scopes(catRepo), "-", nil}},
			[]string{"the spec lacks HEAD /repos/{owner}/{repo}/things"}},
		{"extra, listed", specData{spec: spec, differences: [][]string{served}, extra: [][]string{{"HEAD", R + "/things", "why"}}},
			[]route{get, post, {"HEAD", R + "/things", scopes(catRepo), "-", nil}}, nil},
		{"extra listed, gone", specData{spec: spec, differences: [][]string{served}, extra: [][]string{{"HEAD", R + "/things", "why"}}},
			[]route{get, post}, []string{"HEAD /repos/{owner}/{repo}/things is on"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := compareWithSpec(c.data, c.routes)
			if len(got) != len(c.want) {
				t.Fatalf("problems %q, want %d matching %q", got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %q does not mention %q", got[i], w)
				}
			}
		})
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
