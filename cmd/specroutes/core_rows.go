package main

import (
	"fmt"
	"strings"
)

// extractCore reads the method and path of the core reference's endpoint
// tables; it states no access codes or scope categories per row.
func extractCore(doc string) ([]Row, error) {
	var out []Row
	for _, t := range tables(doc) {
		if len(t.header) < 2 || t.header[0] != "Method" || t.header[1] != "Path" {
			continue
		}
		for _, cells := range t.rows {
			paths, err := expandPaths(cells[1])
			if err != nil {
				return nil, fmt.Errorf("core section %s: %w", t.section, err)
			}
			for _, p := range paths {
				out = append(out, Row{Method: cells[0], Path: p, Scopes: "?", Access: "?", Source: "core " + t.section})
			}
		}
	}
	return out, nil
}

// pathCovers reports whether the catalogue's path pattern covers a core
// path: a {name} stands for one parameter segment, a {*} for the rest of
// the path.
func pathCovers(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if p == "{*}" {
			return i < len(xs)
		}
		if i >= len(xs) {
			return false
		}
		// A named parameter covers a parameter, not a literal: R/{ball_type}
		// does not stand for R/commits.
		if isParam(p) && isParam(xs[i]) {
			continue
		}
		if p != xs[i] {
			return false
		}
	}
	return len(ps) == len(xs)
}

func isParam(seg string) bool {
	return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}")
}
