package repository

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func FuzzAttributes(f *testing.F) {
	f.Add("", []byte("*.go linguist-language=Go\n# comment\nvendor/** linguist-vendored\n"), "vendor/a/b.go", "linguist-vendored", false)
	f.Add("sub/", []byte("*.bin binary\r\n!neg x\n[attr]m a\n/docs/ -diff\n\"q\" y\n"), "sub/docs", "diff", true)
	f.Add("", []byte("a/**/b export-subst\n**/x -text !text\n[ z\n"), "a/q/r/b", "export-subst", false)
	f.Fuzz(func(t *testing.T, dir string, content []byte, p, name string, isDir bool) {
		var a Attributes
		a.Add(dir, content)
		got := a.Lookup(p, isDir, name)
		switch got.State {
		case AttrUnspecified, AttrSet, AttrUnset:
			if got.Value != "" {
				t.Fatalf("state %d carries value %q", got.State, got.Value)
			}
		case AttrValue:
			if strings.ContainsAny(got.Value, " \t\n") {
				t.Fatalf("value %q holds white space", got.Value)
			}
		default:
			t.Fatalf("unknown state %d", got.State)
		}
		if got.IsTrue() && got.IsFalse() {
			t.Fatalf("%+v is both true and false", got)
		}
		if a.Len() > bytes.Count(content, []byte("\n"))+1 {
			t.Fatalf("%d rules from %d lines", a.Len(), bytes.Count(content, []byte("\n"))+1)
		}
		// A literal basename pattern added after the rest decides for a
		// file of that name below dir.
		base := strings.TrimSpace(name)
		if base == "" || strings.ContainsAny(base, "/\\*?[]!#\"-= \t\r\n\v\f\u0085\u00a0") || base == "[attr]" {
			return
		}
		mark := a.Len()
		a.Add(dir, []byte("\n"+base+" fuzzattr=v\n"))
		if got := a.Lookup(dir+"x/"+base, false, "fuzzattr"); got != (Attr{State: AttrValue, Value: "v"}) {
			t.Fatalf("pattern %q in %q: lookup of %q gave %+v", base, dir, dir+"x/"+base, got)
		}
		a.Truncate(mark)
		if got := a.Lookup(dir+"x/"+base, false, "fuzzattr"); got != (Attr{}) {
			t.Fatalf("truncated rule still answers %+v", got)
		}
	})
}

// literalSubst is ExpandExportSubst for data without any '%': each
// terminated "$Format:…$" becomes what it holds (up to a NUL).
func literalSubst(data string) string {
	var b strings.Builder
	for {
		before, after, found := strings.Cut(data, "$Format:")
		if !found {
			break
		}
		format, rest, closed := strings.Cut(after, "$")
		if !closed {
			break
		}
		format, _, _ = strings.Cut(format, "\x00")
		b.WriteString(before)
		b.WriteString(format)
		data = rest
	}
	b.WriteString(data)
	return b.String()
}

func FuzzExpandExportSubst(f *testing.F) {
	f.Add([]byte("v = \"$Format:%H$\"\n"), "subject\n\nbody", 1<<20)
	f.Add([]byte("$Format:%an <%ae> %ad %cI %x41%%%n%d%D%q$ tail $Format:unterminated"), "m", 64)
	f.Add([]byte("$Format:%$$Format:$$Format:%x$"), "", 10)
	f.Add([]byte("$Format:plain\x00cut$"), "", 100)
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", -5*3600))
	f.Fuzz(func(t *testing.T, data []byte, msg string, max int) {
		if max < 0 {
			max = -max
		}
		c := &SubstCommit{ID: strings.Repeat("1", 40), ShortID: "1111111", TreeID: strings.Repeat("2", 40),
			ShortTreeID: "2222222", ParentIDs: []string{strings.Repeat("3", 40)}, ShortParentIDs: []string{"3333333"},
			AuthorName: "A", AuthorEmail: "a@x", AuthorWhen: when, CommitterName: "C", CommitterEmail: "c@x",
			CommitterWhen: when, RawMessage: msg, Decorations: []Decoration{{Name: "HEAD", HeadTarget: "main"},
				{Name: "main", Skip: true}, {Name: "v1", Tag: true}}}
		out := ExpandExportSubst(data, c, max)
		if !bytes.Contains(data, []byte("$Format:")) && !bytes.Equal(out, data) {
			t.Fatalf("data without a placeholder changed: %q -> %q", data, out)
		}
		if !bytes.Equal(out, data) && len(out) > max {
			t.Fatalf("expansion of %d bytes exceeds max %d", len(out), max)
		}
		if bytes.IndexByte(data, '%') < 0 {
			want := literalSubst(string(data))
			if len(want) <= max && string(out) != want {
				t.Fatalf("ExpandExportSubst(%q) = %q, want %q", data, out, want)
			}
		}
	})
}
