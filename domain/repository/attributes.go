package repository

import (
	"path"
	"strings"
)

// AttrState is what a .gitattributes line says of one attribute.
type AttrState int

// The states of an attribute, as gitattributes(5) names them.
const (
	// AttrUnspecified: no line says anything ("!name" resets to it).
	AttrUnspecified AttrState = iota
	// AttrSet: "name".
	AttrSet
	// AttrUnset: "-name".
	AttrUnset
	// AttrValue: "name=value".
	AttrValue
)

// Attr is one attribute's state on a path; Value is set for AttrValue.
type Attr struct {
	State AttrState
	Value string
}

// IsTrue reports whether the attribute is set, or given the value "true".
func (a Attr) IsTrue() bool {
	return a.State == AttrSet || (a.State == AttrValue && a.Value == "true")
}

// IsFalse reports whether the attribute is unset, or given the value "false".
func (a Attr) IsFalse() bool {
	return a.State == AttrUnset || (a.State == AttrValue && a.Value == "false")
}

// attrRule is one line of a .gitattributes file.
type attrRule struct {
	// dir is the directory of the file the line is in: "" for the root,
	// else "a/b/".
	dir string
	// pattern is the line's pattern without a leading or trailing slash.
	pattern string
	// basename patterns (no slash) match the last component at any depth.
	basename bool
	// dirOnly patterns (written with a trailing slash) match directories only.
	dirOnly bool
	attrs   map[string]Attr
}

// Attributes are the .gitattributes rules met on the way to a path, in
// increasing priority: the root file first, deeper files after, and in each
// file later lines after earlier ones (gitattributes(5)). The zero value has
// no rules.
type Attributes struct {
	rules []attrRule
}

// Empty reports whether no rule was added: every lookup is unspecified.
func (a *Attributes) Empty() bool { return len(a.rules) == 0 }

// Len is the number of rules, for Truncate.
func (a *Attributes) Len() int { return len(a.rules) }

// Truncate drops the rules added after the first n (leaving a directory).
func (a *Attributes) Truncate(n int) { a.rules = a.rules[:n] }

// macros are the built-in attribute macros; "binary" is the only one git
// defines. Macros defined with [attr] lines are not supported.
var macros = map[string][]string{"binary": {"-diff", "-merge", "-text"}}

// Add parses the .gitattributes file found in directory dir ("" for the
// root, else a path ending with "/") and appends its rules. Malformed lines,
// negative patterns and macro definitions are ignored, as git ignores them.
func (a *Attributes) Add(dir string, content []byte) {
	for _, line := range strings.Split(string(content), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		pattern := fields[0]
		if strings.HasPrefix(pattern, "[attr]") || strings.HasPrefix(pattern, "!") || strings.HasPrefix(pattern, `"`) {
			continue
		}
		r := attrRule{dir: dir, attrs: map[string]Attr{}}
		if strings.HasSuffix(pattern, "/") {
			r.dirOnly = true
			pattern = strings.TrimRight(pattern, "/")
		}
		r.basename = !strings.Contains(pattern, "/")
		r.pattern = strings.TrimPrefix(pattern, "/")
		if r.pattern == "" {
			continue
		}
		for _, f := range fields[1:] {
			setAttr(r.attrs, f)
		}
		if len(r.attrs) > 0 {
			a.rules = append(a.rules, r)
		}
	}
}

// setAttr records one attribute field of a line ("name", "-name", "!name",
// "name=value"), expanding the built-in macros.
func setAttr(attrs map[string]Attr, f string) {
	switch {
	case strings.HasPrefix(f, "-"):
		attrs[f[1:]] = Attr{State: AttrUnset}
	case strings.HasPrefix(f, "!"):
		attrs[f[1:]] = Attr{State: AttrUnspecified}
	default:
		name, value, hasValue := strings.Cut(f, "=")
		if hasValue {
			attrs[name] = Attr{State: AttrValue, Value: value}
			return
		}
		attrs[name] = Attr{State: AttrSet}
		for _, m := range macros[name] {
			setAttr(attrs, m)
		}
	}
}

// Lookup returns the state of attribute name on p (a path from the
// repository's root, without a trailing slash; isDir when it names a
// directory): the last matching rule that mentions name decides.
func (a *Attributes) Lookup(p string, isDir bool, name string) Attr {
	for i := len(a.rules) - 1; i >= 0; i-- {
		r := &a.rules[i]
		at, mentioned := r.attrs[name]
		if !mentioned || !r.matches(p, isDir) {
			continue
		}
		return at
	}
	return Attr{}
}

// matches applies the rule's pattern to p as git does: a pattern without a
// slash matches the last component at any depth below the file's
// directory; one with a slash matches the path relative to that directory,
// "*" not crossing a slash and "**" spanning any number of directories.
func (r *attrRule) matches(p string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	rel, ok := strings.CutPrefix(p, r.dir)
	if !ok || rel == "" {
		return false
	}
	if r.basename {
		ok, err := path.Match(r.pattern, path.Base(rel))
		return err == nil && ok
	}
	return matchSegments(strings.Split(r.pattern, "/"), strings.Split(rel, "/"))
}

// matchSegments matches path segments against pattern segments, where a
// "**" segment stands for zero or more segments.
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(segs) > 0 // "dir/**" matches what is inside dir
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
