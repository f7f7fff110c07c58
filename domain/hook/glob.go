package hook

import (
	"errors"
	"strings"
)

// Glob is a compiled branch filter in the syntax Gitea's filters use
// (gobwas/glob without separators): "*" matches any run of characters, "/"
// included; "?" any one character; "[abc]", "[a-z]" and "[!…]" a character
// of (or not of) a class; "{a,b}" one of the alternatives, which may hold
// patterns and nest; "\" takes the next character literally.
type Glob struct {
	// alts are the pattern's alternatives with every brace expanded.
	alts [][]globToken
}

// maxGlobAlternatives bounds brace expansion, so a filter such as
// "{a,b}{a,b}{a,b}…" cannot make matching expensive.
const maxGlobAlternatives = 256

type globKind int

const (
	globLiteral globKind = iota
	globAny              // ?
	globStar             // *
	globClass            // [...]
)

type globToken struct {
	kind globKind
	r    rune
	// ranges are the class's inclusive ranges, negated by neg.
	ranges [][2]rune
	neg    bool
}

func (t globToken) matches(r rune) bool {
	switch t.kind {
	case globLiteral:
		return t.r == r
	case globAny:
		return true
	case globClass:
		in := false
		for _, rg := range t.ranges {
			if r >= rg[0] && r <= rg[1] {
				in = true
				break
			}
		}
		return in != t.neg
	}
	return false
}

// Glob syntax errors.
var (
	errGlobBrace   = errors.New("unclosed '{'")
	errGlobClass   = errors.New("unclosed or empty '['")
	errGlobRange   = errors.New("a character range runs backwards")
	errGlobEscape  = errors.New("'\\' at the end of the pattern")
	errGlobTooMany = errors.New("too many alternatives")
	errGlobNesting = errors.New("braces nested too deep")
)

// CompileGlob compiles pattern, or says why it is not a valid glob.
func CompileGlob(pattern string) (Glob, error) {
	p := &globParser{rs: []rune(pattern)}
	alts, err := p.seq(false, 0)
	if err != nil {
		return Glob{}, err
	}
	return Glob{alts: alts}, nil
}

// ValidateBranchFilter checks a hook's branch filter: empty, or a glob.
func ValidateBranchFilter(filter string) error {
	if filter == "" {
		return nil
	}
	if _, err := CompileGlob(filter); err != nil {
		return invalid("not a valid glob pattern: "+err.Error(), "BranchFilter")
	}
	return nil
}

// Match reports whether s matches the whole pattern.
func (g Glob) Match(s string) bool {
	rs := []rune(s)
	for _, alt := range g.alts {
		if matchTokens(alt, rs) {
			return true
		}
	}
	return false
}

// matchTokens is the classic wildcard match: on a mismatch it retries from
// the last star, one character further, which bounds the work by
// len(tokens)×len(s).
func matchTokens(ts []globToken, s []rune) bool {
	ti, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case ti < len(ts) && ts[ti].kind == globStar:
			star, mark = ti, si
			ti++
		case ti < len(ts) && ts[ti].matches(s[si]):
			ti++
			si++
		case star >= 0:
			mark++
			ti, si = star+1, mark
		default:
			return false
		}
	}
	for ti < len(ts) && ts[ti].kind == globStar {
		ti++
	}
	return ti == len(ts)
}

type globParser struct {
	rs []rune
	i  int
}

// seq reads tokens up to the end, or inside braces up to the next ',' or
// '}', and returns them as expanded alternatives.
func (p *globParser) seq(inBrace bool, depth int) ([][]globToken, error) {
	alts := [][]globToken{{}}
	add := func(t globToken) {
		for i := range alts {
			alts[i] = append(alts[i], t)
		}
	}
	for p.i < len(p.rs) {
		r := p.rs[p.i]
		if inBrace && (r == ',' || r == '}') {
			return alts, nil
		}
		p.i++
		switch r {
		case '*':
			add(globToken{kind: globStar})
		case '?':
			add(globToken{kind: globAny})
		case '\\':
			if p.i >= len(p.rs) {
				return nil, errGlobEscape
			}
			add(globToken{kind: globLiteral, r: p.rs[p.i]})
			p.i++
		case '[':
			t, err := p.class()
			if err != nil {
				return nil, err
			}
			add(t)
		case '{':
			if depth >= 8 {
				return nil, errGlobNesting
			}
			group, err := p.braces(depth + 1)
			if err != nil {
				return nil, err
			}
			if len(alts)*len(group) > maxGlobAlternatives {
				return nil, errGlobTooMany
			}
			next := make([][]globToken, 0, len(alts)*len(group))
			for _, a := range alts {
				for _, g := range group {
					next = append(next, append(append([]globToken(nil), a...), g...))
				}
			}
			alts = next
		default:
			add(globToken{kind: globLiteral, r: r})
		}
	}
	return alts, nil
}

// braces reads the alternatives after a '{' up to its '}'.
func (p *globParser) braces(depth int) ([][]globToken, error) {
	var group [][]globToken
	for {
		sub, err := p.seq(true, depth)
		if err != nil {
			return nil, err
		}
		group = append(group, sub...)
		if len(group) > maxGlobAlternatives {
			return nil, errGlobTooMany
		}
		if p.i >= len(p.rs) {
			return nil, errGlobBrace
		}
		c := p.rs[p.i]
		p.i++
		if c == '}' {
			return group, nil
		}
	}
}

// class reads a character class after its '['.
func (p *globParser) class() (globToken, error) {
	t := globToken{kind: globClass}
	if p.i < len(p.rs) && p.rs[p.i] == '!' {
		t.neg = true
		p.i++
	}
	for p.i < len(p.rs) && p.rs[p.i] != ']' {
		lo := p.rs[p.i]
		p.i++
		hi := lo
		if p.i+1 < len(p.rs) && p.rs[p.i] == '-' && p.rs[p.i+1] != ']' {
			hi = p.rs[p.i+1]
			p.i += 2
			if hi < lo {
				return t, errGlobRange
			}
		}
		t.ranges = append(t.ranges, [2]rune{lo, hi})
	}
	if p.i >= len(p.rs) || len(t.ranges) == 0 {
		return t, errGlobClass
	}
	p.i++ // ']'
	return t, nil
}

// String is the pattern's alternatives, for test failures.
func (g Glob) String() string {
	var b strings.Builder
	for i, alt := range g.alts {
		if i > 0 {
			b.WriteString(" | ")
		}
		for _, t := range alt {
			switch t.kind {
			case globLiteral:
				b.WriteRune(t.r)
			case globAny:
				b.WriteByte('?')
			case globStar:
				b.WriteByte('*')
			case globClass:
				b.WriteString("[…]")
			}
		}
	}
	return b.String()
}
