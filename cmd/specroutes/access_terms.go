package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/depothq/depot/domain/permission"
)

// Beyond the spec's code table (T, RR(u), … ST), the catalogue states some
// rules in prose. Each phrase gets a code, so that a row's rules are one
// comparable set; the adapter already knows Basic, Explore and UsersPage,
// and domain/permission knows GitHooks, IssuesEnabled, IssuesOrPulls and
// Attachments as access codes.
const (
	codeBasic         = "Basic"         // Basic auth with a password
	codeExplore       = "Explore"       // sign-in when the site restricts exploring
	codeUsersPage     = "UsersPage"     // 404 when the users page is disabled
	codeGitHooks      = "GitHooks"      // allowed to edit Git hooks (403)
	codeIssuesEnabled = "IssuesEnabled" // the repository's issues are enabled
	codeIssuesOrPulls = "IssuesOrPulls" // issues or pull requests readable, else 404
	codeAttachments   = "Attachments"   // attachments enabled on the site, else 404
	codePulls         = "Pulls"         // pull requests enabled, else 404
	codeWiki          = "Wiki"          // wiki unit readable, else 404
	codeHTTPSig       = "HTTPSig"       // a valid HTTP signature
	codeSignedURL     = "SignedURL"     // a signed URL (query sig), no token
	codePkgRead       = "PkgRead"       // read access to the owner's packages
	codePkgWrite      = "PkgWrite"      // write access to the owner's packages
)

// phrases maps the catalogue's prose access rules to codes; a term that is
// neither a spec code nor one of these stops the generator, so new wording
// in the spec is noticed rather than dropped.
var phrases = []struct {
	prefix, code string
}{
	{"Basic auth", codeBasic},
	{"sign-in when the site restricts exploring", codeExplore},
	{"same sign-in rule", codeExplore},
	{"404 when the users page is disabled", codeUsersPage},
	{"allowed to edit Git hooks", codeGitHooks},
	{"issues enabled", codeIssuesEnabled},
	{"valid HTTP signature", codeHTTPSig},
	{"signed URL only", codeSignedURL},
	{"read", codePkgRead},
	{"write", codePkgWrite},
}

var (
	scopeRe   = regexp.MustCompile(`scope categor(?:y|ies) ([a-z]+(?: and [a-z]+)?)`)
	methodsRe = regexp.MustCompile(`^((?:GET|POST|PUT|PATCH|DELETE)(?:(?:,| and) (?:GET|POST|PUT|PATCH|DELETE))*|writes)(?: needs?| also)? (.*)$`)
	alsoAtRe  = regexp.MustCompile("also at `([^`]+)`")
	routeSet  = regexp.MustCompile("same ([a-z, ]+) route set as `([^`]+)/\\.\\.\\.` under `([^`]+)/\\.\\.\\.`")
)

// accessFor reads an Access cell for one method. Clauses are separated by
// ";"; a clause may start with the methods it is for ("POST needs T, NA",
// "PATCH and DELETE T, OO, TM", "writes need T", "PUT and DELETE also OO").
// A clause "scope category x" names the row's scopes instead.
func accessFor(cell, method string) (codes, scopes []string, err error) {
	for _, clause := range strings.Split(cell, ";") {
		clause = strings.TrimSpace(clause)
		if m := scopeRe.FindStringSubmatch(clause); m != nil && strings.HasPrefix(clause, "scope") {
			scopes = strings.Split(m[1], " and ")
			continue
		}
		if m := methodsRe.FindStringSubmatch(clause); m != nil {
			if !forMethod(m[1], method) {
				continue
			}
			clause = m[2]
		}
		for _, term := range splitTerms(clause) {
			c, err := codeOf(term)
			if err != nil {
				return nil, nil, err
			}
			if c != "" {
				codes = append(codes, c)
			}
		}
	}
	return codes, scopes, nil
}

// notesFor reads what a Notes cell says of access: clauses made only of
// codes ("ST", "WH"), method clauses ("POST needs NA") and scope clauses.
// Other notes (bodies, descriptions) are not about access.
func notesFor(notes, method string) (codes, scopes []string, err error) {
	for _, clause := range strings.Split(notes, ";") {
		clause = strings.TrimSpace(clause)
		if m := scopeRe.FindStringSubmatch(clause); m != nil && strings.HasPrefix(clause, "scope") {
			scopes = strings.Split(m[1], " and ")
			continue
		}
		if m := methodsRe.FindStringSubmatch(clause); m != nil && strings.Contains(clause, " need") {
			if !forMethod(m[1], method) {
				continue
			}
			clause = m[2]
		}
		var got []string
		for _, term := range splitTerms(clause) {
			c, err := permission.ParseCode(term)
			if err != nil {
				got = nil
				break
			}
			got = append(got, c.String())
		}
		codes = append(codes, got...)
	}
	return codes, scopes, nil
}

func forMethod(list, method string) bool {
	if list == "writes" {
		return method != "GET"
	}
	for _, m := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		if m == method {
			return true
		}
	}
	return false
}

// splitTerms splits on commas outside parentheses.
func splitTerms(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s + "," {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				if t := strings.TrimSpace(s[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	return out
}

// codeOf reads one term of an Access cell: a spec code, "-", or a phrase.
func codeOf(term string) (string, error) {
	if term == "-" {
		return "", nil
	}
	if c, err := permission.ParseCode(term); err == nil {
		return c.String(), nil
	}
	for _, p := range phrases {
		if term == p.prefix || strings.HasPrefix(term, p.prefix+" ") {
			return p.code, nil
		}
	}
	return "", fmt.Errorf("unknown access term %q", term)
}
