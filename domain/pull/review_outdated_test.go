package pull

import "testing"

func TestIsOutdated(t *testing.T) {
	a, b := LineOrigin{CommitID: "a"}, LineOrigin{CommitID: "b"}
	gone := LineOrigin{Missing: true}
	cases := []struct {
		name      string
		then, now LineOrigin
		want      bool
	}{
		{"same origin", a, a, false},
		{"changed by a later commit", a, b, true},
		{"line or file gone", a, gone, true},
		{"line appeared where none was", gone, a, true},
		{"still absent", gone, gone, false},
	}
	for _, c := range cases {
		if got := IsOutdated(c.then, c.now); got != c.want {
			t.Errorf("%s: IsOutdated = %v, want %v", c.name, got, c.want)
		}
	}
	if UnsignedLine(-3) != 3 || UnsignedLine(4) != 4 {
		t.Error("UnsignedLine")
	}
}
