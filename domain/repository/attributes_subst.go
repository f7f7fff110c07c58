package repository

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// SubstCommit is what the export-subst attribute can say about the commit
// an archive holds: the facts the $Format:…$ placeholders expand to.
type SubstCommit struct {
	ID, ShortID         string
	TreeID, ShortTreeID string
	// ParentIDs and ShortParentIDs are in the commit's order.
	ParentIDs, ShortParentIDs []string
	AuthorName, AuthorEmail   string
	// AuthorWhen and CommitterWhen carry the offset the commit recorded.
	AuthorWhen                    time.Time
	CommitterName, CommitterEmail string
	CommitterWhen                 time.Time
	// RawMessage is the commit's message as stored, after the headers.
	RawMessage string
	// Decorations are the refs pointing at the commit, in the order git log
	// shows them (see Decoration).
	Decorations []Decoration
}

// Decoration is one name %d shows for a commit.
type Decoration struct {
	// Name is the short name: "main", "v1.0", "origin/main", "HEAD".
	Name string
	// Tag marks a tag ("tag: " is written before it).
	Tag bool
	// HeadTarget, on the HEAD decoration only, is the branch HEAD points to
	// when that branch decorates the commit too: shown as "HEAD -> branch",
	// the branch's own entry being left out.
	HeadTarget string
	// Skip leaves the entry out (the branch shown with HEAD).
	Skip bool
}

// ExpandExportSubst replaces every "$Format:<pretty>$" in data with the
// pretty format expanded for c, as git archive does for files with the
// export-subst attribute: text up to the first "$" after "$Format:" is the
// format; an unterminated one is left as it is. Placeholders it does not
// know are left as written, as git leaves them. It returns data itself when
// nothing is expanded, and also when the result would exceed max bytes.
func ExpandExportSubst(data []byte, c *SubstCommit, max int) []byte {
	marker := []byte("$Format:")
	if !bytes.Contains(data, marker) {
		return data
	}
	var out []byte
	rest := data
	for {
		b := bytes.Index(rest, marker)
		if b < 0 {
			break
		}
		end := bytes.IndexByte(rest[b+len(marker):], '$')
		if end < 0 {
			break
		}
		format := rest[b+len(marker) : b+len(marker)+end]
		if nul := bytes.IndexByte(format, 0); nul >= 0 {
			format = format[:nul] // git reads the format as a C string
		}
		out = append(out, rest[:b]...)
		out = c.appendPretty(out, string(format))
		if len(out) > max {
			return data
		}
		rest = rest[b+len(marker)+end+1:]
	}
	if out == nil && len(rest) == len(data) {
		return data
	}
	out = append(out, rest...)
	if len(out) > max {
		return data
	}
	return out
}

// appendPretty appends format expanded for c, as git log --format=<format>
// would write it.
func (c *SubstCommit) appendPretty(out []byte, format string) []byte {
	for len(format) > 0 {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			return append(out, format...)
		}
		out = append(out, format[:i]...)
		format = format[i+1:]
		var n int
		out, n = c.appendPlaceholder(out, format)
		if n == 0 {
			out = append(out, '%') // unknown: git writes it as it is
		}
		format = format[n:]
	}
	return out
}

// appendPlaceholder expands the placeholder at the start of p (what follows
// a "%"), returning how many bytes of p it took (0: not a placeholder).
func (c *SubstCommit) appendPlaceholder(out []byte, p string) ([]byte, int) {
	if p == "" {
		return out, 0
	}
	switch p[0] {
	case '%':
		return append(out, '%'), 1
	case 'n':
		return append(out, '\n'), 1
	case 'x':
		if len(p) >= 3 {
			if v, err := strconv.ParseUint(p[1:3], 16, 8); err == nil {
				return append(out, byte(v)), 3
			}
		}
		return out, 0
	case 'H':
		return append(out, c.ID...), 1
	case 'h':
		return append(out, c.ShortID...), 1
	case 'T':
		return append(out, c.TreeID...), 1
	case 't':
		return append(out, c.ShortTreeID...), 1
	case 'P':
		return append(out, strings.Join(c.ParentIDs, " ")...), 1
	case 'p':
		return append(out, strings.Join(c.ShortParentIDs, " ")...), 1
	case 'a', 'c':
		if len(p) < 2 {
			return out, 0
		}
		name, email, when := c.AuthorName, c.AuthorEmail, c.AuthorWhen
		if p[0] == 'c' {
			name, email, when = c.CommitterName, c.CommitterEmail, c.CommitterWhen
		}
		return appendPerson(out, p[1], name, email, when)
	case 's':
		subject, _ := c.subjectAndBody()
		return append(out, subject...), 1
	case 'b':
		_, body := c.subjectAndBody()
		return append(out, body...), 1
	case 'B':
		return append(out, c.RawMessage...), 1
	case 'd':
		if s := c.decorations(); s != "" {
			out = append(out, " ("...)
			out = append(out, s...)
			out = append(out, ')')
		}
		return out, 1
	case 'D':
		return append(out, c.decorations()...), 1
	}
	return out, 0
}

// appendPerson expands the author or committer placeholder whose second
// letter is k; dates take the forms git archive uses (its default date
// format for %ad and %cd).
func appendPerson(out []byte, k byte, name, email string, when time.Time) ([]byte, int) {
	switch k {
	case 'n':
		return append(out, name...), 2
	case 'e':
		return append(out, email...), 2
	case 'l':
		local, _, _ := strings.Cut(email, "@")
		return append(out, local...), 2
	case 'd':
		return when.AppendFormat(out, "Mon Jan 2 15:04:05 2006 -0700"), 2
	case 'D':
		return when.AppendFormat(out, "Mon, 2 Jan 2006 15:04:05 -0700"), 2
	case 'i':
		return when.AppendFormat(out, "2006-01-02 15:04:05 -0700"), 2
	case 'I':
		return when.AppendFormat(out, "2006-01-02T15:04:05-07:00"), 2
	case 't':
		return strconv.AppendInt(out, when.Unix(), 10), 2
	case 's':
		return when.AppendFormat(out, "2006-01-02"), 2
	case 'h':
		return out, 0
	}
	return out, 0
}

// subjectAndBody splits the message as git's pretty formats do: leading
// blank lines skipped, the subject is the first paragraph with its lines
// right-trimmed and joined by spaces, the body what follows the blank lines
// after it, as stored.
func (c *SubstCommit) subjectAndBody() (string, string) {
	msg := skipBlankLines(c.RawMessage)
	var subject strings.Builder
	for msg != "" {
		line, rest, _ := strings.Cut(msg, "\n")
		line = strings.TrimRight(line, gitSpace)
		if line == "" {
			break
		}
		if subject.Len() > 0 {
			subject.WriteByte(' ')
		}
		subject.WriteString(line)
		msg = rest
	}
	return subject.String(), skipBlankLines(msg)
}

// gitSpace are the bytes git's isspace accepts.
const gitSpace = " \t\n\r"

// skipBlankLines drops the leading lines holding only white space.
func skipBlankLines(s string) string {
	for s != "" {
		line, rest, found := strings.Cut(s, "\n")
		if strings.TrimRight(line, gitSpace) != "" {
			return s
		}
		if !found {
			return ""
		}
		s = rest
	}
	return s
}

// decorations is what %D writes: the names joined by ", ".
func (c *SubstCommit) decorations() string {
	var b strings.Builder
	for _, d := range c.Decorations {
		if d.Skip {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if d.Tag {
			b.WriteString("tag: ")
		}
		b.WriteString(d.Name)
		if d.HeadTarget != "" {
			b.WriteString(" -> ")
			b.WriteString(d.HeadTarget)
		}
	}
	return b.String()
}
