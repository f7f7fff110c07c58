package libgit2

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file holds the places where git spells a patch or a mail header
// differently from libgit2 or Go's mime package.

// gitFileLabels adds the tab git prints after a "--- " or "+++ " label
// holding a space (so that the name's end is unambiguous), which libgit2
// leaves out. text is one file's patch; lines after its header are kept.
func gitFileLabels(text string) string {
	end := len(text)
	if i := strings.Index(text, "\n@@"); i >= 0 {
		end = i + 1
	}
	header := text[:end]
	if !strings.Contains(header, "--- ") || !strings.Contains(header, " ") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 2)
	for rest := header; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		b.WriteString(line)
		if (strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ ")) && strings.Contains(line[4:], " ") {
			b.WriteByte('\t')
		}
		b.WriteByte('\n')
	}
	if !strings.HasSuffix(header, "\n") {
		// No final newline in the text: drop the one added.
		return strings.TrimSuffix(b.String(), "\n")
	}
	b.WriteString(text[end:])
	return b.String()
}

// mailLineMax is the longest RFC 2047 encoded header line git writes.
const mailLineMax = 76

// mailEncoded encodes s as RFC 2047 "Q" words the way git format-patch
// does: every byte of a multi-byte character, space and the specials as
// =XX (never _), lines folded before mailLineMax with a space opening the
// next one. used is the length of the header line before s; address
// selects the stricter set of plain characters of a name in an address.
func mailEncoded(s string, used int, address bool) string {
	const open = "=?UTF-8?q?"
	var b strings.Builder
	b.WriteString(open)
	n := used + len(open)
	for s != "" {
		_, size := utf8.DecodeRuneInString(s)
		ch := s[:size]
		s = s[size:]
		enc := ch
		if size > 1 || mailSpecial(ch[0], address) {
			enc = ""
			for i := 0; i < len(ch); i++ {
				enc += fmt.Sprintf("=%02X", ch[i])
			}
		}
		if n+len(enc)+2 > mailLineMax {
			b.WriteString("?=\n " + open)
			n = len(open) + 1
		}
		b.WriteString(enc)
		n += len(enc)
	}
	b.WriteString("?=")
	return b.String()
}

// mailSpecial reports whether git encodes byte c inside an encoded word.
func mailSpecial(c byte, address bool) bool {
	if c >= utf8.RuneSelf || c <= ' ' || c == 0x7f || c == '=' || c == '?' || c == '_' {
		return true
	}
	if !address {
		return false
	}
	alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	return !alnum && !strings.ContainsRune("!*+-/", rune(c))
}

// mailNeedsEncoding reports whether git encodes header text s: it is not
// plain ASCII, or it holds what would read as an encoded word.
func mailNeedsEncoding(s string) bool {
	return !isASCII(s) || strings.Contains(s, "=?")
}

// mailHeaderWidth is where git folds plain header text (RFC 2822).
const mailHeaderWidth = 78

// mailFolded folds plain header text as git does (its
// strbuf_add_wrapped_text): words are kept on the line while it stays
// within mailHeaderWidth columns, counting the used ones before text; a
// word that does not fit opens a new line indented by one space.
func mailFolded(text string, used int) string {
	const indent = 1
	var b strings.Builder
	bol, space, hasSpace := 0, 0, true
	w := used
	for i := 0; ; {
		end := i == len(text)
		if !end && text[i] != ' ' && text[i] != '\t' {
			w++
			i++
			continue
		}
		if w <= mailHeaderWidth || !hasSpace {
			start := bol
			if end && i == start {
				return b.String()
			}
			if hasSpace {
				start = space
			} else {
				b.WriteString(strings.Repeat(" ", indent))
			}
			b.WriteString(text[start:i])
			if end {
				return b.String()
			}
			space, hasSpace = i, true
			if text[i] == '\t' {
				w |= 7
			}
			w++
			i++
			continue
		}
		b.WriteByte('\n')
		i = space
		if text[i] == ' ' || text[i] == '\t' {
			i++
		}
		bol, hasSpace, w = i, false, indent
	}
}
