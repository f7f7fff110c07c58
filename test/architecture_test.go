package test

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

const module = "github.com/depothq/depot"

// layerRules say what each layer must not import (ARCHITECTURE.md).
var layerRules = []struct {
	layer     string
	forbidden *regexp.Regexp
	why       string
}{
	{"domain", regexp.MustCompile(`^(` + module + `/(app|adapters|ports|wire|cmd|test)|net/http|database/sql|os$|os/exec|io/fs|net$|github\.com/uptrace|github\.com/libgit2|github\.com/gorilla|modernc\.org)`),
		"domain/ is pure: no I/O and no other layer"},
	{"ports", regexp.MustCompile(`^(` + module + `/(app|adapters|wire|cmd|test)|github\.com/uptrace|github\.com/libgit2|github\.com/gorilla|modernc\.org)`),
		"ports/ may import only the domain"},
	{"app", regexp.MustCompile(`^(` + module + `/(adapters|wire|cmd|test)|net/http$|database/sql|github\.com/uptrace|github\.com/libgit2|github\.com/gorilla|modernc\.org)`),
		"app/ reaches the world only through ports/"},
	{"adapters", regexp.MustCompile(`^` + module + `/(wire|cmd|test)`),
		"adapters/ must not import the composition root"},
}

type goPackage struct {
	ImportPath string
	Imports    []string
}

// TestLayers fails when a layer imports upward or reaches for I/O it must not.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		for _, rule := range layerRules {
			if rel != rule.layer && !strings.HasPrefix(rel, rule.layer+"/") {
				continue
			}
			checked++
			for _, imp := range p.Imports {
				if rule.forbidden.MatchString(imp) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, rule.why)
				}
			}
		}
	}
	if checked < 8 {
		t.Fatalf("only %d packages checked: the layout is not what this test expects", checked)
	}
}
