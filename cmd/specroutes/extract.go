package main

import (
	"fmt"
	"sort"
	"strings"
)

// Row is one route of the spec: a method on a path (R expanded), the scope
// categories of its group ("-" for none, "?" when the spec does not say)
// and its access codes, canonical and sorted ("-" for none, "?" when the
// spec does not say).
type Row struct {
	Method, Path, Scopes, Access, Source string
}

// repoPrefix is what the catalogue's R abbreviation stands for, in the
// route table's names (the catalogue writes /repos/{username}/{reponame}).
const repoPrefix = "/repos/{owner}/{repo}"

// groupRules are what a section heading and the prose before a table say of
// every row below.
type groupRules struct {
	scopes  []string // nil: no scope; set by the heading or the prose
	base    []string // codes every row needs
	underR  []string // codes every row under R needs
	assets  []string // codes every attachment (…/assets) row needs
	fromRow bool     // the table lists access per row
}

// rulesOf reads a group's heading and prose.
func rulesOf(text string) groupRules {
	var g groupRules
	if m := scopeRe.FindStringSubmatch(text); m != nil {
		g.scopes = strings.Split(m[1], " and ")
	}
	has := func(s string) bool { return strings.Contains(text, s) }
	switch {
	case has("all need T and SA"):
		g.base = append(g.base, "T", "SA")
	case has("all T"):
		g.base = append(g.base, "T")
	}
	if has("RR(releases) on all") {
		g.base = append(g.base, "RR(releases)")
	}
	if has("needs pull requests enabled, else 404, and RR(code)") {
		g.base = append(g.base, codePulls, "RR(code)")
	}
	if has("wiki unit readable, else 404") {
		g.base = append(g.base, codeWiki)
	}
	if has("All routes need T and at least read access to the package owner's packages") {
		g.base = append(g.base, "T", codePkgRead)
	}
	if has("need issues or pull requests readable (else 404)") {
		g.underR = append(g.underR, codeIssuesOrPulls)
	}
	if has("attachment routes exist only when attachments are enabled (else 404)") {
		g.assets = append(g.assets, codeAttachments)
	}
	return g
}

// Extract reads the route tables of the extended catalogue (every table
// under "## 4."), then adds the core reference's endpoint rows that the
// catalogue lacks, with scopes and access "?" (the core reference has no
// Access column).
func Extract(catalogue, core string) ([]Row, error) {
	rows, err := extractCatalogue(catalogue)
	if err != nil {
		return nil, err
	}
	coreRows, err := extractCore(core)
	if err != nil {
		return nil, err
	}
	for _, c := range coreRows {
		covered := false
		for _, r := range rows {
			if r.Method == c.Method && pathCovers(r.Path, c.Path) {
				covered = true
				break
			}
		}
		if !covered {
			rows = append(rows, c)
		}
	}
	return rows, nil
}

func extractCatalogue(doc string) ([]Row, error) {
	var out []Row
	byPath := map[string][]Row{} // rows so far, for the "same route set" note
	at := map[string]int{}       // index in out of each method and path
	explicit := map[string]bool{}
	// add appends a row, or merges it into the row the catalogue already
	// gave for the same method and path (/user/orgs is in 4.4 and 4.8): the
	// codes are the union, and scopes a row names itself win over those it
	// inherits from its heading.
	add := func(r Row, named bool) error {
		key := r.Method + " " + r.Path
		i, seen := at[key]
		if !seen {
			at[key], explicit[key] = len(out), named
			out = append(out, r)
			byPath[r.Path] = append(byPath[r.Path], r)
			return nil
		}
		have := &out[i]
		have.Access = JoinSet(append(splitSet(have.Access), splitSet(r.Access)...))
		have.Source += ", " + strings.TrimPrefix(r.Source, "catalogue ")
		switch {
		case have.Scopes == r.Scopes:
		case named && !explicit[key]:
			have.Scopes, explicit[key] = r.Scopes, true
		case !named && explicit[key]:
		default:
			return fmt.Errorf("%s: scopes %s and %s", key, have.Scopes, r.Scopes)
		}
		return nil
	}
	for _, t := range tables(doc) {
		if len(t.header) < 2 || t.header[0] != "Method" || t.header[1] != "Path" {
			continue
		}
		g := rulesOf(t.context)
		access := -1
		for i, h := range t.header {
			if h == "Access" {
				access = i
			}
		}
		var prev string // the previous row's Access cell, for "same"
		for _, cells := range t.rows {
			if len(cells) < len(t.header) {
				return nil, fmt.Errorf("section %s: short row %q", t.section, cells)
			}
			cell := "-"
			if access >= 0 {
				cell = cells[access]
				if cell == "same" {
					cell = prev
				}
				prev = cell
			}
			notes := cells[len(cells)-1]
			paths, err := expandPaths(cells[1])
			if err != nil {
				return nil, fmt.Errorf("section %s: %w", t.section, err)
			}
			if m := alsoAtRe.FindStringSubmatch(notes); m != nil {
				paths = append(paths, expandR(m[1]))
			}
			for _, method := range strings.Split(cells[0], ", ") {
				codes, sc, err := accessFor(cell, method)
				if err != nil {
					return nil, fmt.Errorf("section %s, %s %s: %w", t.section, method, cells[1], err)
				}
				noteCodes, noteScopes, err := notesFor(notes, method)
				if err != nil {
					return nil, fmt.Errorf("section %s, %s %s notes: %w", t.section, method, cells[1], err)
				}
				codes = append(append(codes, noteCodes...), g.base...)
				if sc == nil {
					sc = noteScopes
				}
				named := sc != nil
				if sc == nil {
					sc = g.scopes
				}
				for _, p := range paths {
					all := codes
					if strings.HasPrefix(p, repoPrefix) {
						all = append(all, g.underR...)
						if strings.Contains(p, "/assets") {
							all = append(all, g.assets...)
						}
					}
					r, err := newRow(method, p, sc, all, "catalogue "+t.section)
					if err != nil {
						return nil, err
					}
					if err := add(r, named); err != nil {
						return nil, err
					}
				}
			}
			// "same secrets, variables and runners route set as R/actions/...
			// under /orgs/{org}/actions/...": the row's own codes and scopes
			// on each such route of R, moved under the new prefix.
			if m := routeSet.FindStringSubmatch(notes); m != nil {
				from, to := expandR(m[2]), m[3]
				codes, sc, err := accessFor(cell, "GET")
				if err != nil {
					return nil, err
				}
				if sc == nil {
					sc = g.scopes
				}
				kinds := strings.FieldsFunc(strings.ReplaceAll(m[1], " and ", ","), func(r rune) bool { return r == ',' || r == ' ' })
				for _, src := range out {
					rest, ok := strings.CutPrefix(src.Path, from+"/")
					if !ok || !hasKind(rest, kinds) {
						continue
					}
					p := to + "/" + rest
					dup := false
					for _, have := range byPath[p] {
						dup = dup || have.Method == src.Method
					}
					if dup {
						continue
					}
					r, err := newRow(src.Method, p, sc, append(codes, g.base...), "catalogue "+t.section)
					if err != nil {
						return nil, err
					}
					if err := add(r, false); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

func hasKind(rest string, kinds []string) bool {
	first, _, _ := strings.Cut(rest, "/")
	for _, k := range kinds {
		if first == k {
			return true
		}
	}
	return false
}

// expandPaths reads a Path cell: "`R/x`", or "`R/x/{sha}.diff` and `.patch`"
// (a second path with the first's extension replaced).
func expandPaths(cell string) ([]string, error) {
	parts := strings.Split(cell, " and ")
	var out []string
	for i, p := range parts {
		p = strings.Trim(strings.TrimSpace(p), "`")
		if p == "" {
			return nil, fmt.Errorf("empty path in %q", cell)
		}
		if i > 0 && strings.HasPrefix(p, ".") {
			base := out[0]
			if dot := strings.LastIndex(base, "."); dot > strings.LastIndex(base, "/") {
				base = base[:dot]
			}
			p = base + p
		} else {
			p = expandR(p)
		}
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("path %q is not absolute", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// expandR expands the catalogue's R, and its spelled-out form
// /repos/{username}/{reponame}, to the route table's repository prefix.
func expandR(p string) string {
	if p == "R" {
		return repoPrefix
	}
	if rest, ok := strings.CutPrefix(p, "R/"); ok {
		return repoPrefix + "/" + rest
	}
	if rest, ok := strings.CutPrefix(p, "/repos/{username}/{reponame}"); ok {
		return repoPrefix + rest
	}
	return p
}

func newRow(method, path string, scopes, codes []string, source string) (Row, error) {
	switch method {
	case "GET", "POST", "PUT", "PATCH", "DELETE":
	default:
		return Row{}, fmt.Errorf("%s %s: unknown method", method, path)
	}
	return Row{Method: method, Path: path, Scopes: JoinSet(scopes), Access: JoinSet(codes), Source: source}, nil
}

// JoinSet writes a set of scopes or codes: sorted, without repeats, joined
// by ","; "-" when empty.
func JoinSet(items []string) string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if it != "" && !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// splitSet reads what JoinSet wrote.
func splitSet(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
