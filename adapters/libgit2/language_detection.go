package libgit2

// Language detection over go-enry's linguist tables (its data package) with
// a strategy chain of our own instead of the enry package's GetLanguage.
// Importing the enry package builds its naive Bayes classifier's token
// tables at start (about 11 MB of heap that stays live, a third of the
// server's idle heap, and 8 MB of the executable); the data package alone
// costs about 4 MB, and the linker drops the classifier tables we never name.
// What the classifier decided (a file whose name, extension, interpreter and
// content heuristics still leave several languages) is now the first of
// those candidates in linguist's order: rare, and only for files that are
// ambiguous by every other measure. Editor modelines are not read.

import (
	"bytes"
	"path"
	"strings"

	"github.com/go-enry/go-enry/v2/data"
)

// binarySniff is how much of a file is searched for a NUL byte, as git and
// linguist do.
const binarySniff = 8000

// isBinary reports whether content looks binary: a NUL in its first bytes.
func isBinary(content []byte) bool {
	if len(content) > binarySniff {
		content = content[:binarySniff]
	}
	return bytes.IndexByte(content, 0) >= 0
}

// isDotFile reports whether p's last element is hidden (starts with a dot).
func isDotFile(p string) bool {
	base := path.Base(path.Clean(p))
	return len(base) > 1 && base[0] == '.'
}

// isDocumentation reports whether p is documentation by linguist's rules.
func isDocumentation(p string) bool {
	for _, m := range data.DocumentationMatchers {
		if m != nil && m.MatchString(p) {
			return true
		}
	}
	return false
}

// configurationLanguages are the data formats linguist leaves out of the
// statistics when the extension alone names them.
var configurationLanguages = map[string]bool{"XML": true, "JSON": true, "TOML": true, "YAML": true, "INI": true, "SQL": true}

// isConfiguration reports whether p's extension names a configuration format.
func isConfiguration(p string) bool {
	lang, _ := languageByExtension(p)
	return configurationLanguages[lang]
}

// isVendor reports whether p (a directory when it ends with "/") matches
// linguist's vendored paths.
func isVendor(p string) bool {
	if data.FastVendorMatcher != nil {
		return data.FastVendorMatcher.MatchString(p)
	}
	for _, m := range data.VendorMatchers {
		if m != nil && m.MatchString(p) {
			return true
		}
	}
	return false
}

// isGenerated reports whether p is generated code, by its name or by the
// start of its content.
func isGenerated(p string, content []byte) bool {
	ext := strings.ToLower(path.Ext(p))
	if _, ok := data.GeneratedCodeExtensions[ext]; ok {
		return true
	}
	for _, m := range data.GeneratedCodeNameMatchers {
		if m(p) {
			return true
		}
	}
	lower := strings.ToLower(p)
	for _, m := range data.GeneratedCodeMatchers {
		if m(lower, ext, content) {
			return true
		}
	}
	return false
}

// languageGroup is the group lang is counted under ("" when none).
func languageGroup(lang string) string { return data.LanguagesGroup[lang] }

// countsAsCode reports whether lang is a programming or markup language, the
// kinds the statistics count.
func countsAsCode(lang string) bool {
	t, ok := data.LanguagesType[lang]
	return ok && (data.Type(t) == data.TypeProgramming || data.Type(t) == data.TypeMarkup)
}

// languagesByExtension are the languages of p's longest known extension
// ("x.tar.gz" tries ".tar.gz" before ".gz").
func languagesByExtension(p string) []string {
	name := strings.ToLower(path.Base(p))
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if langs, ok := data.LanguagesByExtension[name[i:]]; ok {
			return langs
		}
	}
	return nil
}

// languageByExtension is the language p's extension names, and whether it
// names exactly one.
func languageByExtension(p string) (string, bool) {
	return onlyLanguage(languagesByExtension(p))
}

// languageByFilename is the language p's file name names, and whether it
// names exactly one.
func languageByFilename(p string) (string, bool) {
	return onlyLanguage(data.LanguagesByFilename[path.Base(p)])
}

func onlyLanguage(langs []string) (string, bool) {
	if len(langs) == 0 {
		return "", false
	}
	return langs[0], len(langs) == 1
}

// languagesByInterpreter are the languages of the interpreter content's
// first line names ("#!/usr/bin/env python3" → Python).
func languagesByInterpreter(content []byte) []string {
	line, _, _ := bytes.Cut(content, []byte{'\n'})
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return nil
	}
	fields := bytes.Fields(rest)
	if len(fields) == 0 {
		return nil
	}
	interpreter := path.Base(string(fields[0]))
	if interpreter == "env" {
		// env's options and VAR=value assignments come before the program.
		args := fields[1:]
		for len(args) > 0 && (args[0][0] == '-' || bytes.IndexByte(args[0], '=') > 0) {
			args = args[1:]
		}
		if len(args) == 0 {
			return nil
		}
		interpreter = path.Base(string(args[0]))
	}
	// python3.12 is listed as python3.
	if strings.HasPrefix(interpreter, "python") {
		if dot := strings.IndexByte(interpreter, '.'); dot > 0 {
			interpreter = interpreter[:dot]
		}
	}
	return data.LanguagesByInterpreter[interpreter]
}

// languagesByContent are the languages linguist's content heuristics for p's
// extension find in content.
func languagesByContent(p string, content []byte) []string {
	h, ok := data.ContentHeuristics[strings.ToLower(path.Ext(p))]
	if !ok {
		return nil
	}
	return h.Match(content)
}

// guessLanguage names the language of a file whose extension and name were
// not conclusive: the strategies run in linguist's order, the first that
// finds exactly one language decides, and otherwise the last list of several
// candidates gives its first; "" when none found any.
func guessLanguage(p string, content []byte) string {
	var candidates []string
	for _, strategy := range [...]func(string, []byte) []string{
		func(p string, _ []byte) []string { return data.LanguagesByFilename[path.Base(p)] },
		func(_ string, content []byte) []string { return languagesByInterpreter(content) },
		func(p string, _ []byte) []string { return languagesByExtension(p) },
		languagesByContent,
	} {
		switch langs := strategy(p, content); {
		case len(langs) == 1:
			return langs[0]
		case len(langs) > 1:
			candidates = langs
		}
	}
	if len(candidates) > 0 {
		return candidates[0]
	}
	return ""
}
