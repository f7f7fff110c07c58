package repository_test

import (
	"strings"
	"testing"

	"github.com/depothq/depot/domain/repository"
)

func TestWikiNames(t *testing.T) {
	cases := []struct {
		title, web, file string
	}{
		{"Home", "Home", "Home.md"},
		{"Home Page", "Home-Page", "Home-Page.md"},
		{"100% Free", "100%25-Free", "100%25-Free.md"},
		{"2000-01-02 meeting", "2000-01-02+meeting.-", "2000-01-02 meeting.-.md"},
		{"a/b", "a%2Fb", "a%2Fb.md"},
		{"../etc/passwd", "..%2Fetc%2Fpasswd", "..%2Fetc%2Fpasswd.md"},
		{"..", "unnamed", "unnamed.md"},
		{"  ", "unnamed", "unnamed.md"},
		{"Über Straße", "%C3%9Cber-Stra%C3%9Fe", "%C3%9Cber-Stra%C3%9Fe.md"},
		{"_Sidebar", "_Sidebar", "_Sidebar.md"},
	}
	for _, tc := range cases {
		web := repository.WikiTitleToWebPath(tc.title)
		if web != tc.web {
			t.Errorf("title %q: web path %q, want %q", tc.title, web, tc.web)
		}
		file := repository.WikiWebPathToFile(web)
		if file != tc.file {
			t.Errorf("title %q: file %q, want %q", tc.title, file, tc.file)
		}
		back, ok := repository.WikiFileToWebPath(file)
		if !ok || back != web {
			t.Errorf("file %q: web path %q %v, want %q", file, back, ok, web)
		}
		if tc.web != "unnamed" && repository.WikiWebPathToTitle(web) != strings.TrimSpace(tc.title) {
			t.Errorf("web %q: title %q, want %q", web, repository.WikiWebPathToTitle(web), tc.title)
		}
	}
}

func TestWikiWebPathFromRequest(t *testing.T) {
	cases := []struct{ raw, web, file string }{
		{"Home-Page", "Home-Page", "Home-Page.md"},
		{"Home%20Page", "Home%20Page", "Home-Page.md"},
		{"a/b", "a%2Fb", "a%2Fb.md"},
		{"../../x", "x", "x.md"},
		{"..%2F..%2Fx.md", "..%2F..%2Fx.md", "x.md"},
		{"Page.md", "Page.md", "Page.md"},
	}
	for _, tc := range cases {
		web := repository.WikiWebPathFromRequest(tc.raw)
		if web != tc.web {
			t.Errorf("raw %q: web %q, want %q", tc.raw, web, tc.web)
		}
		if f := repository.WikiWebPathToFile(web); f != tc.file {
			t.Errorf("raw %q: file %q, want %q", tc.raw, f, tc.file)
		}
	}
}

func TestWikiReservedNames(t *testing.T) {
	for _, name := range []string{"_pages", "_new", "_edit", "raw"} {
		if repository.CheckWikiWebPath(repository.WikiTitleToWebPath(name)) == nil {
			t.Errorf("%q accepted", name)
		}
	}
	if err := repository.CheckWikiWebPath("Raw-Data"); err != nil {
		t.Errorf("Raw-Data refused: %v", err)
	}
}

func FuzzWikiPageName(f *testing.F) {
	for _, s := range []string{"Home", "a/b", "../..", "x.md", "..%2Fx.md", "a-b", "%zz", "\x00", `a\..\b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, web := range []string{repository.WikiTitleToWebPath(s), repository.WikiWebPathFromRequest(s)} {
			file := repository.WikiWebPathToFile(web)
			if file == "" || strings.HasPrefix(file, "/") {
				t.Fatalf("%q: file %q leaves the wiki", s, file)
			}
			for _, seg := range strings.Split(file, "/") {
				if seg == ".." {
					t.Fatalf("%q: file %q leaves the wiki", s, file)
				}
			}
			_ = repository.WikiWebPathToTitle(web)
			_ = repository.CheckWikiWebPath(web)
		}
		web := repository.WikiTitleToWebPath(s)
		if strings.Contains(web, "/") {
			t.Fatalf("title %q: web path %q has a slash", s, web)
		}
		file := repository.WikiWebPathToFile(web)
		if back, ok := repository.WikiFileToWebPath(file); !ok || back != web {
			t.Fatalf("title %q: web %q → file %q → %q", s, web, file, back)
		}
	})
}
