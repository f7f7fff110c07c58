package repository

import (
	"reflect"
	"testing"
)

func TestDiffRefs(t *testing.T) {
	const a, b, c = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333"
	cases := []struct {
		name          string
		before, after map[string]string
		want          []RefChange
	}{
		{"nothing moved", map[string]string{"refs/heads/main": a}, map[string]string{"refs/heads/main": a}, nil},
		{"both empty", nil, nil, nil},
		{"created, updated and deleted, by name",
			map[string]string{"refs/heads/main": a, "refs/tags/v1": b, "refs/heads/old": c},
			map[string]string{"refs/heads/main": b, "refs/tags/v1": b, "refs/heads/new": c},
			[]RefChange{
				{OldID: a, NewID: b, Ref: "refs/heads/main"},
				{OldID: zeroID, NewID: c, Ref: "refs/heads/new"},
				{OldID: c, NewID: zeroID, Ref: "refs/heads/old"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := DiffRefs(tc.before, tc.after)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("DiffRefs = %+v, want %+v", got, tc.want)
			}
			for _, ch := range got {
				if ch.IsCreate() != (ch.OldID == zeroID) || ch.IsDelete() != (ch.NewID == zeroID) {
					t.Fatalf("%+v: create/delete misread", ch)
				}
			}
		})
	}
}
