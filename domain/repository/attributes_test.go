package repository

import (
	"testing"

	"github.com/matryer/is"
)

func TestAttributesLookup(t *testing.T) {
	var a Attributes
	a.Add("", []byte(`# comment
*.gen    linguist-generated
/docs    export-ignore
tests/   export-ignore
vendor/** linguist-vendored
*.bin    binary
src/**/*.pb.go linguist-generated=true
keep.gen -linguist-generated
!neg     export-ignore
[attr]mine text
"quoted" export-ignore
*.h linguist-language=C++
`))
	a.Add("lib/", []byte("*.js linguist-vendored\nown.js !linguist-vendored\n"))
	cases := []struct {
		path  string
		isDir bool
		attr  string
		want  Attr
	}{
		{"a.gen", false, "linguist-generated", Attr{State: AttrSet}},
		{"deep/dir/a.gen", false, "linguist-generated", Attr{State: AttrSet}},
		{"keep.gen", false, "linguist-generated", Attr{State: AttrUnset}},
		{"docs", true, "export-ignore", Attr{State: AttrSet}},
		{"docs", false, "export-ignore", Attr{State: AttrSet}},
		{"sub/docs", true, "export-ignore", Attr{}}, // anchored
		{"tests", true, "export-ignore", Attr{State: AttrSet}},
		{"tests", false, "export-ignore", Attr{}}, // trailing slash: directories only
		{"vendor/x/y.go", false, "linguist-vendored", Attr{State: AttrSet}},
		{"vendor", true, "linguist-vendored", Attr{}},
		{"a.bin", false, "diff", Attr{State: AttrUnset}},
		{"a.bin", false, "binary", Attr{State: AttrSet}},
		{"src/a/b/x.pb.go", false, "linguist-generated", Attr{State: AttrValue, Value: "true"}},
		{"src/x.pb.go", false, "linguist-generated", Attr{State: AttrValue, Value: "true"}},
		{"other/x.pb.go", false, "linguist-generated", Attr{}},
		{"neg", false, "export-ignore", Attr{}},
		{"quoted", false, "export-ignore", Attr{}},
		{"x.h", false, "linguist-language", Attr{State: AttrValue, Value: "C++"}},
		{"lib/a.js", false, "linguist-vendored", Attr{State: AttrSet}},
		{"lib/own.js", false, "linguist-vendored", Attr{State: AttrUnspecified}},
		{"a.js", false, "linguist-vendored", Attr{}}, // lib/'s rules stay in lib/
	}
	for _, c := range cases {
		t.Run(c.path+"/"+c.attr, func(t *testing.T) {
			is := is.New(t)
			is.Equal(a.Lookup(c.path, c.isDir, c.attr), c.want)
		})
	}
	is := is.New(t)
	is.True(a.Lookup("a.gen", false, "linguist-generated").IsTrue())
	is.True(a.Lookup("keep.gen", false, "linguist-generated").IsFalse())
	n := a.Len()
	a.Add("x/", []byte("* export-ignore\n"))
	is.True(a.Lookup("x/y", false, "export-ignore").IsTrue())
	a.Truncate(n)
	is.True(!a.Lookup("x/y", false, "export-ignore").IsTrue())
	var none Attributes
	is.True(none.Empty())
}
