package repository

import (
	"testing"

	"github.com/matryer/is"
)

func TestNeedsHousekeeping(t *testing.T) {
	for _, c := range []struct {
		name  string
		store ObjectStore
		want  bool
	}{
		{"empty", ObjectStore{}, false},
		{"a few loose objects", ObjectStore{LooseEstimate: LooseObjectsLimit - 1}, false},
		{"many loose objects", ObjectStore{LooseEstimate: LooseObjectsLimit}, true},
		{"one pack with its bitmap", ObjectStore{Packs: 1, Bitmap: true}, false},
		{"one pack with its bitmap and many loose objects", ObjectStore{Packs: 1, Bitmap: true, LooseEstimate: 512}, true},
		{"one pack without a bitmap (a first push)", ObjectStore{Packs: 1}, true},
		{"two packs (a second push)", ObjectStore{Packs: 2, Bitmap: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			is.New(t).Equal(NeedsHousekeeping(c.store), c.want)
		})
	}
}
