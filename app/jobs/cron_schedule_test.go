package jobs_test

import (
	"errors"
	"testing"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
)

func TestCronScheduleNext(t *testing.T) {
	from := time.Date(2026, 3, 1, 10, 7, 30, 0, time.UTC)
	cases := []struct {
		spec string
		want time.Time
	}{
		{"@every 10m", from.Add(10 * time.Minute)},
		{"@midnight", time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)},
		{"*/15 * * * *", time.Date(2026, 3, 1, 10, 15, 0, 0, time.UTC)},
		{"0 30 3 * * *", time.Date(2026, 3, 2, 3, 30, 0, 0, time.UTC)},
		{"@weekly", time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		s, err := jobs.ParseCronSchedule(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		if got := s.Next(from); !got.Equal(c.want) {
			t.Errorf("%q: next %v, want %v", c.spec, got, c.want)
		}
		if s.String() != c.spec {
			t.Errorf("%q: String %q", c.spec, s.String())
		}
	}
}

func TestCronScheduleRefusesBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "every day", "61 * * * *", "@fortnightly", "* * *"} {
		if _, err := jobs.ParseCronSchedule(spec); !errors.Is(err, errs.ErrInvalid) {
			t.Errorf("%q: err %v, want invalid", spec, err)
		}
	}
}

func FuzzParseCronSchedule(f *testing.F) {
	for _, s := range []string{"@every 1h", "*/5 * * * *", "0 0 * * * *", "@midnight", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := jobs.ParseCronSchedule(spec)
		if err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("%q: uncategorised %v", spec, err)
			}
			return
		}
		_ = s.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	})
}
