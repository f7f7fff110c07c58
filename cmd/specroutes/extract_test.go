package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// catalogueSample holds one of each way the catalogue lays out a route's
// rules: heading scopes, R, several methods in one row, per-method clauses
// in the Access and Notes cells, prose before a table, "same", "also at",
// ".diff and .patch", tables without an Access column, a route listed in
// two sections, and a route set repeated under another prefix.
const catalogueSample = "# Catalogue\n\n" +
	"## 4. Endpoints\n\n" +
	"In this catalogue `R` stands for `/repos/{username}/{reponame}`.\n\n" +
	"| Code | Meaning |\n|---|---|\n| T | signed in |\n\n" +
	"### 4.1 Miscellaneous (no scope)\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| POST | `/markup` | T | body MarkupOption; also at `R/markup` |\n\n" +
	"### 4.4 Users (scope category user)\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| GET | `/users/search` | sign-in when the site restricts exploring (401 `x`); 404 when the users page is disabled | |\n" +
	"| GET | `/users/{username}/repos` | same sign-in rule; scope category repository | |\n" +
	"| GET | `/users/{username}/tokens` | SOA, Basic auth | |\n\n" +
	"Authenticated-user routes (scope category user; all T):\n\n" +
	"| Method | Path | Body record / notes |\n|---|---|---|\n" +
	"| GET, PUT, DELETE | `/user/starred/{username}/{reponame}` | scope category repository; ST; check, star, unstar |\n" +
	"| GET | `/user/orgs` | scope categories user and organization |\n" +
	"| GET, POST | `/user/hooks` | WH; POST body CreateHookOption |\n\n" +
	"### 4.5 Repositories (scope category repository)\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| GET | `R` | AR | |\n" +
	"| GET | `R/git/commits/{sha}.diff` and `.patch` | RR(code) | |\n" +
	"| GET | `R/{ball_type}/{*}` | RR(code) | |\n" +
	"| GET, POST | `R/push_mirrors` | T, RA | POST needs NA; body CreatePushMirrorOption |\n" +
	"| GET | `R/hooks/git` | T, RA, allowed to edit Git hooks (403 `y`) | |\n" +
	"| GET, PATCH | `R/hooks/git/{id}` | same | |\n" +
	"| GET, DELETE | `R/actions/secrets/{secretname}` | T, RO | |\n" +
	"| GET | `R/actions/runners` | T, RO | |\n\n" +
	"Releases (RR(releases) on all):\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| GET | `R/releases` | - | |\n" +
	"| POST | `R/releases` | T, RW(releases) | |\n\n" +
	"### 4.6 Issues (scope category issue)\n\n" +
	"Issue routes under `R` need issues or pull requests readable (else 404); attachment routes exist only when attachments are enabled (else 404).\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| GET | `/repos/issues/search` | - | |\n" +
	"| GET, POST | `R/issues/{index}/assets` | POST needs T, NA | upload |\n" +
	"| GET, POST, DELETE | `R/issues/{index}/blocks` | writes need T | |\n" +
	"| POST | `R/labels` | T, RW(issues and pull requests) | |\n\n" +
	"### 4.8 Organizations (scope category organization)\n\n" +
	"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
	"| GET | `/user/orgs` | T | |\n" +
	"| GET, PATCH | `/teams/{teamid}` | GET T, TM; PATCH and DELETE T, OO, TM | |\n" +
	"| GET, PUT | `/teams/{teamid}/members/{username}` | T, TM; PUT and DELETE also OO | |\n" +
	"| GET | `/orgs/{org}/actions/secrets` | T, OO | same secrets and variables route set as `R/actions/...` under `/orgs/{org}/actions/...` |\n\n" +
	"### 4.9 Administration (scope category admin; all need T and SA)\n\n" +
	"| Method | Path | Notes |\n|---|---|---|\n" +
	"| GET | `/admin/cron` | list scheduled tasks |\n"

const coreSample = "# Core\n\n## 4. Endpoints (core)\n\n### 4.1 Repositories\n\n" +
	"| Method | Path | Input | Success |\n|---|---|---|---|\n" +
	"| GET | `/repos/{owner}/{repo}` | none | 200 |\n" +
	"| GET | `/repos/{owner}/{repo}/git/commits/{sha}.patch` | none | 200 |\n" +
	"| GET | `/repos/{owner}/{repo}/commits/{sha}` | none | 200 |\n" +
	"| PATCH | `/repos/{owner}/{repo}/issue-tracker` | body | 204 |\n\n" +
	"Create-repository body:\n\n| Field | Type |\n|---|---|\n| `name` | string |\n"

func TestExtractReadsEveryLayout(t *testing.T) {
	is := is.New(t)
	rows, err := Extract(catalogueSample, coreSample)
	is.NoErr(err)
	got := map[string]string{} // "METHOD path" -> "scopes access"
	for _, r := range rows {
		key := r.Method + " " + r.Path
		_, dup := got[key]
		is.True(!dup) // each route once
		got[key] = r.Scopes + " " + r.Access
	}
	want := map[string]string{
		"POST /markup":                                              "- T",
		"POST /repos/{owner}/{repo}/markup":                         "- T",
		"GET /users/search":                                         "user Explore,UsersPage",
		"GET /users/{username}/repos":                               "repository Explore",
		"GET /users/{username}/tokens":                              "user Basic,SOA",
		"GET /user/starred/{username}/{reponame}":                   "repository ST,T",
		"PUT /user/starred/{username}/{reponame}":                   "repository ST,T",
		"DELETE /user/starred/{username}/{reponame}":                "repository ST,T",
		"GET /user/orgs":                                            "organization,user T",
		"GET /user/hooks":                                           "user T,WH",
		"POST /user/hooks":                                          "user T,WH",
		"GET /repos/{owner}/{repo}":                                 "repository AR",
		"GET /repos/{owner}/{repo}/git/commits/{sha}.diff":          "repository RR(code)",
		"GET /repos/{owner}/{repo}/git/commits/{sha}.patch":         "repository RR(code)",
		"GET /repos/{owner}/{repo}/{ball_type}/{*}":                 "repository RR(code)",
		"GET /repos/{owner}/{repo}/push_mirrors":                    "repository RA,T",
		"POST /repos/{owner}/{repo}/push_mirrors":                   "repository NA,RA,T",
		"GET /repos/{owner}/{repo}/hooks/git":                       "repository GitHooks,RA,T",
		"GET /repos/{owner}/{repo}/hooks/git/{id}":                  "repository GitHooks,RA,T",
		"PATCH /repos/{owner}/{repo}/hooks/git/{id}":                "repository GitHooks,RA,T",
		"GET /repos/{owner}/{repo}/actions/secrets/{secretname}":    "repository RO,T",
		"DELETE /repos/{owner}/{repo}/actions/secrets/{secretname}": "repository RO,T",
		"GET /repos/{owner}/{repo}/actions/runners":                 "repository RO,T",
		"GET /repos/{owner}/{repo}/releases":                        "repository RR(releases)",
		"POST /repos/{owner}/{repo}/releases":                       "repository RR(releases),RW(releases),T",
		"GET /repos/issues/search":                                  "issue -",
		"GET /repos/{owner}/{repo}/issues/{index}/assets":           "issue Attachments,IssuesOrPulls",
		"POST /repos/{owner}/{repo}/issues/{index}/assets":          "issue Attachments,IssuesOrPulls,NA,T",
		"GET /repos/{owner}/{repo}/issues/{index}/blocks":           "issue IssuesOrPulls",
		"POST /repos/{owner}/{repo}/issues/{index}/blocks":          "issue IssuesOrPulls,T",
		"DELETE /repos/{owner}/{repo}/issues/{index}/blocks":        "issue IssuesOrPulls,T",
		"POST /repos/{owner}/{repo}/labels":                         "issue IssuesOrPulls,RW(issues,pulls),T",
		"GET /teams/{teamid}":                                       "organization T,TM",
		"PATCH /teams/{teamid}":                                     "organization OO,T,TM",
		"GET /teams/{teamid}/members/{username}":                    "organization T,TM",
		"PUT /teams/{teamid}/members/{username}":                    "organization OO,T,TM",
		"GET /orgs/{org}/actions/secrets":                           "organization OO,T",
		"GET /orgs/{org}/actions/secrets/{secretname}":              "organization OO,T",
		"DELETE /orgs/{org}/actions/secrets/{secretname}":           "organization OO,T",
		"GET /admin/cron":                                           "admin SA,T",
		// The core rows the catalogue does not cover, without rules.
		"GET /repos/{owner}/{repo}/commits/{sha}":   "? ?",
		"PATCH /repos/{owner}/{repo}/issue-tracker": "? ?",
	}
	for k, v := range want {
		is.Equal(got[k], v) // k
	}
	is.Equal(len(got), len(want)) // no other rows (runners are not in the org route set; the core .patch row is the catalogue's)
}

func TestExtractRefusesUnknownWording(t *testing.T) {
	is := is.New(t)
	doc := "## 4. Endpoints\n\n### 4.5 Repositories (scope category repository)\n\n" +
		"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
		"| GET | `R/x` | T, caller must be lucky | |\n"
	_, err := Extract(doc, "")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), `"caller must be lucky"`))
}

func TestExtractRefusesConflictingScopes(t *testing.T) {
	is := is.New(t)
	doc := "## 4. Endpoints\n\n### 4.4 Users (scope category user)\n\n" +
		"| Method | Path | Access | Notes |\n|---|---|---|---|\n" +
		"| GET | `/x` | T | scope category repository |\n" +
		"| GET | `/x` | T | scope category issue |\n"
	_, err := Extract(doc, "")
	is.True(err != nil)
}

// TestCheckFailsOnDrift runs the command's check: it passes on the file it
// wrote and fails once the file and the spec disagree.
func TestCheckFailsOnDrift(t *testing.T) {
	is := is.New(t)
	spec := t.TempDir()
	is.NoErr(os.WriteFile(filepath.Join(spec, "extended-catalogue.md"), []byte(catalogueSample), 0o644))
	is.NoErr(os.WriteFile(filepath.Join(spec, "core-reference.md"), []byte(coreSample), 0o644))
	out := filepath.Join(t.TempDir(), "spec-routes.tsv")
	is.NoErr(run(spec, out, false))
	is.NoErr(run(spec, out, true))

	b, err := os.ReadFile(out)
	is.NoErr(err)
	is.True(strings.HasPrefix(string(b), header+"\n"))
	is.NoErr(os.WriteFile(out, []byte(strings.Replace(string(b), "GitHooks,RA,T", "RA,T", 1)), 0o644))
	err = run(spec, out, true)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "differs from the spec"))
}

func TestPathCovers(t *testing.T) {
	is := is.New(t)
	is.True(pathCovers("/repos/{owner}/{repo}/raw/{*}", "/repos/{owner}/{repo}/raw/{ref}/{filepath}"))
	is.True(pathCovers("/orgs/{org}/repos", "/orgs/{orgname}/repos"))
	is.True(!pathCovers("/repos/{owner}/{repo}/{ball_type}/{*}", "/repos/{owner}/{repo}/commits/{sha}"))
	is.True(!pathCovers("/repos/{owner}/{repo}/raw/{*}", "/repos/{owner}/{repo}/raw"))
	is.True(!pathCovers("/a/b", "/a/b/c"))
}
