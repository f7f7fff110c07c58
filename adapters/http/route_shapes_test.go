package http

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// routeSample fills a route template's variables with values mux's own
// expressions accept: a plain variable takes "val", {name:.*} takes a
// value with slashes, and an alternation its first choice.
func routeSample(template string) string {
	vars := regexp.MustCompile(`\{[^{}]*(\{[^{}]*\}[^{}]*)*\}`)
	return vars.ReplaceAllStringFunc(template, func(v string) string {
		name, expr, ok := strings.Cut(strings.Trim(v, "{}"), ":")
		_ = name
		switch {
		case !ok:
			return "val"
		case strings.Contains(expr, ".*") || strings.Contains(expr, ".+"):
			return "a/b.c"
		case strings.Contains(expr, "|"):
			return strings.Split(expr, "|")[0]
		}
		return "val"
	})
}

// TestRouteShapesNeverRefuseAMatch checks every route's shape against a
// path sampled from every route: wherever mux's own pattern of a route
// matches a path, its shape must too, or the route would be lost. And the
// shapes do their job: most pairs are refused by the shape alone.
func TestRouteShapesNeverRefuseAMatch(t *testing.T) {
	table := (&Server{}).routes()
	type compiled struct {
		template string
		route    *mux.Route
		shape    pathShape
	}
	router := mux.NewRouter().UseEncodedPath()
	var all []compiled
	seen := map[string]bool{}
	for _, rt := range table {
		tpl := apiPrefix + rt.path
		if seen[tpl] {
			continue
		}
		seen[tpl] = true
		all = append(all, compiled{tpl, router.NewRoute().Path(tpl), newPathShape(tpl)})
	}
	var samples []string
	for _, c := range all {
		samples = append(samples, routeSample(c.template), routeSample(c.template)+"/", routeSample(c.template)+"/extra")
	}
	refused, pairs := 0, 0
	for _, path := range samples {
		req := httptest.NewRequest("GET", path, nil)
		for _, c := range all {
			pairs++
			matched := c.route.Match(req, &mux.RouteMatch{})
			shaped := c.shape.match(req.URL.EscapedPath())
			if matched && !shaped {
				t.Errorf("%s: mux matches %s, the shape refuses it", c.template, path)
			}
			if !shaped {
				refused++
			}
		}
	}
	if refused < pairs*9/10 {
		t.Errorf("the shapes refused %d of %d pairs; they should settle most", refused, pairs)
	}
}

func TestRouteShapeMatch(t *testing.T) {
	for _, tc := range []struct {
		template, path string
		want           bool
	}{
		{"/api/v1/repos/{owner}/{repo}/issues/{index}/comments", "/api/v1/repos/a/b/issues/3/comments", true},
		{"/api/v1/repos/{owner}/{repo}/issues/{index}/comments", "/api/v1/repos/a/b/issues/3/labels", false},
		{"/api/v1/repos/{owner}/{repo}/issues/{index}/comments", "/api/v1/repos/a/b/issues/3/comments/", false},
		{"/api/v1/repos/{owner}/{repo}/issues/{index}/comments", "/api/v1/repos/a/b/issues/3", false},
		{"/api/v1/repos/{owner}/{repo}", "/api/v1/repos/a/b", true},
		{"/api/v1/repos/{owner}/{repo}/raw/{filepath:.*}", "/api/v1/repos/a/b/raw/dir/file.go", true},
		{"/api/v1/repos/{owner}/{repo}/raw/{filepath:.*}", "/api/v1/repos/a/b/blob/dir/file.go", false},
		{"/api/v1/repos/{owner}/{repo}/pulls/{index}.diff", "/api/v1/repos/a/b/pulls/3.diff", true},
		{"/api/v1/version", "/api/v1/version", true},
		{"/api/v1/version", "/api/v1/versions", false},
		{"/api/v1/version", "api/v1/version", false},
	} {
		if got := newPathShape(tc.template).match(tc.path); got != tc.want {
			t.Errorf("%s on %s: %v, want %v", tc.template, tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct {
		template, path string
		want           bool
	}{
		{"/api/v1", "/api/v1", true},
		{"/api/v1", "/api/v1/", true},
		{"/api/v1", "/api/v1/repos/a/b", true},
		{"/api/v1", "/api/v1x", false},
		{"/api/v1", "/api", false},
		{"/api/v1/repos/{owner}/{repo}/pulls", "/api/v1/repos/a/b/pulls", true},
		{"/api/v1/repos/{owner}/{repo}/pulls", "/api/v1/repos/a/b/pulls/1/files", true},
		{"/api/v1/repos/{owner}/{repo}/pulls", "/api/v1/repos/a/b/issues/1", false},
		{"/api/v1/repos/{owner}/{repo}/pulls", "/api/v1/repos/a/b", false},
	} {
		if got := prefixShape(tc.template).match(tc.path); got != tc.want {
			t.Errorf("prefix %s on %s: %v, want %v", tc.template, tc.path, got, tc.want)
		}
	}
}
