package packages

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/depothq/depot/domain/errs"
)

func TestCleanupRuleSelect(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	// Newest first: 1.3.0 (1 day old), 1.2.0 (10 days), 1.1.0-rc1 (20 days),
	// 1.0.0 (40 days), 0.9.0 (100 days).
	versions := []CleanupCandidate{
		{Version: Version{Version: "1.3.0", CreatedAt: now.Add(-1 * day)}},
		{Version: Version{Version: "1.2.0", CreatedAt: now.Add(-10 * day)}},
		{Version: Version{Version: "1.1.0-RC1", CreatedAt: now.Add(-20 * day)}},
		{Version: Version{Version: "1.0.0", CreatedAt: now.Add(-40 * day)}},
		{Version: Version{Version: "0.9.0", CreatedAt: now.Add(-100 * day)}},
	}
	tests := []struct {
		name string
		rule CleanupRule
		in   []CleanupCandidate
		want []string
	}{
		{"no criteria removes every version", CleanupRule{Type: TypeGeneric}, versions,
			[]string{"1.3.0", "1.2.0", "1.1.0-RC1", "1.0.0", "0.9.0"}},
		{"keep the last two", CleanupRule{Type: TypeGeneric, KeepCount: 2}, versions,
			[]string{"1.1.0-RC1", "1.0.0", "0.9.0"}},
		{"keep more than there are", CleanupRule{Type: TypeGeneric, KeepCount: 9}, versions, nil},
		{"older than 30 days", CleanupRule{Type: TypeGeneric, RemoveDays: 30}, versions,
			[]string{"1.0.0", "0.9.0"}},
		{"keep count and age together", CleanupRule{Type: TypeGeneric, KeepCount: 4, RemoveDays: 30}, versions,
			[]string{"0.9.0"}},
		{"remove pattern, any case, whole version", CleanupRule{Type: TypeGeneric, RemovePattern: `.*-rc\d+`}, versions,
			[]string{"1.1.0-RC1"}},
		{"remove pattern must match whole", CleanupRule{Type: TypeGeneric, RemovePattern: `1\.`}, versions, nil},
		{"keep pattern wins over remove", CleanupRule{Type: TypeGeneric, KeepPattern: `1\..*`, RemovePattern: `.*`},
			versions, []string{"0.9.0"}},
		{"alternation is anchored as a whole", CleanupRule{Type: TypeGeneric, RemovePattern: `0\.9\.0|1\.0\.0`},
			versions, []string{"1.0.0", "0.9.0"}},
		{"full name matching", CleanupRule{Type: TypeGeneric, RemovePattern: `app/1\.0\.0`, MatchFullName: true},
			versions, []string{"1.0.0"}},
		{"version-only pattern misses the full name", CleanupRule{Type: TypeGeneric, RemovePattern: `1\.0\.0`,
			MatchFullName: true}, versions, nil},
		{"protected versions stay and still count", CleanupRule{Type: TypeContainer, KeepCount: 1}, []CleanupCandidate{
			{Version: Version{Version: "latest", CreatedAt: now.Add(-50 * day)}, Protected: true},
			{Version: Version{Version: "v2", CreatedAt: now.Add(-60 * day)}},
			{Version: Version{Version: "sha256:ab", CreatedAt: now.Add(-70 * day)}, Protected: true},
			{Version: Version{Version: "v1", CreatedAt: now.Add(-80 * day)}},
		}, []string{"v2", "v1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.rule.Policy(now)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range p.Select("App", tc.in) {
				got = append(got, v.Version)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("removed %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCleanupRuleValidate(t *testing.T) {
	tests := []struct {
		rule  CleanupRule
		field string
	}{
		{CleanupRule{Type: "generic", KeepPattern: `v\d+`, RemovePattern: `.*`}, ""},
		{CleanupRule{Type: "NPM"}, ""},
		{CleanupRule{Type: "nosuch"}, "type"},
		{CleanupRule{Type: "generic", KeepCount: -1}, "keep_count"},
		{CleanupRule{Type: "generic", RemoveDays: -1}, "remove_days"},
		{CleanupRule{Type: "generic", KeepPattern: `(`}, "keep_pattern"},
		{CleanupRule{Type: "generic", RemovePattern: `[z-a]`}, "remove_pattern"},
		{CleanupRule{Type: "generic", RemovePattern: `a)|(b`}, "remove_pattern"},
	}
	for _, tc := range tests {
		err := tc.rule.Validate()
		if tc.field == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.rule, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{tc.field}) {
			t.Errorf("%+v: got %v, want invalid %s", tc.rule, err, tc.field)
		}
	}
}

func TestContainerProtected(t *testing.T) {
	for v, want := range map[string]bool{"latest": true, "LATEST": true, "sha256:0a": true, "v1": false, "latest2": false} {
		if ContainerProtected(v) != want {
			t.Errorf("%s: want %v", v, want)
		}
	}
}

func FuzzCleanupRuleValidate(f *testing.F) {
	f.Add(`v\d+`, `.*-rc`)
	f.Add(`(`, `a)|(b`)
	f.Fuzz(func(t *testing.T, keep, remove string) {
		r := CleanupRule{Type: TypeGeneric, KeepPattern: keep, RemovePattern: remove}
		if err := r.Validate(); err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("not a 422: %v", err)
			}
			return
		}
		p, err := r.Policy(time.Now())
		if err != nil {
			t.Fatal(err)
		}
		p.Select(keep, []CleanupCandidate{{Version: Version{Version: remove}}})
	})
}
