package jobs

import (
	"fmt"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/depothq/depot/domain/errs"
)

// cronParser reads the schedules Gitea's [cron.<task>] SCHEDULE accepts:
// five fields, an optional leading seconds field, and descriptors such as
// "@every 10m" or "@midnight".
var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// CronSchedule is a periodic task's parsed schedule.
type CronSchedule struct {
	spec  string
	sched cron.Schedule
}

// ParseCronSchedule parses spec; a spec the parser refuses is invalid
// input naming the field "schedule".
func ParseCronSchedule(spec string) (CronSchedule, error) {
	s, err := cronParser.Parse(spec)
	if err != nil {
		return CronSchedule{}, errs.Invalid(fmt.Sprintf("cron schedule %q: %v", spec, err), "schedule")
	}
	return CronSchedule{spec: spec, sched: s}, nil
}

// String is the schedule as written.
func (c CronSchedule) String() string { return c.spec }

// Next is the first time after t the schedule fires, in UTC.
func (c CronSchedule) Next(t time.Time) time.Time { return c.sched.Next(t.UTC()).UTC() }
