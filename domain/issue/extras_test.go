package issue

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestCheckTrackTime(t *testing.T) {
	cases := []struct {
		name string
		in   TimeTracking
		want error
	}{
		{"disabled", TimeTracking{}, errs.ErrBadRequest},
		{"anyone", TimeTracking{Enabled: true}, nil},
		{"contributors only, stranger", TimeTracking{Enabled: true, OnlyContributors: true}, errs.ErrForbidden},
		{"contributors only, writer", TimeTracking{Enabled: true, OnlyContributors: true, Writer: true}, nil},
		{"contributors only, poster", TimeTracking{Enabled: true, OnlyContributors: true, Poster: true}, nil},
		{"contributors only, assignee", TimeTracking{Enabled: true, OnlyContributors: true, Assignee: true}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckTrackTime(c.in)
			if c.want == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, c.want))
		})
	}
}

func TestTrackedSecondsAndFormat(t *testing.T) {
	is := is.New(t)
	is.True(errors.Is(ValidateTrackedSeconds(0), errs.ErrInvalid))
	is.NoErr(ValidateTrackedSeconds(-60))
	is.True(errors.Is(ValidateTrackedSeconds(1<<40), errs.ErrInvalid))
	is.Equal(TimeContent(3600), "|3600")
	for in, want := range map[int64]string{0: "", 59: "59 seconds", 1: "1 second", 60: "1 minute",
		3720: "1 hour 2 minutes", 7200: "2 hours", -120: "- 2 minutes"} {
		is.Equal(FormatDuration(in), want)
	}
	start := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	is.Equal(StopwatchSeconds(start, start.Add(90*time.Second)), int64(90))
	is.Equal(StopwatchSeconds(start, start.Add(-time.Second)), int64(0))
}

func TestDeadline(t *testing.T) {
	is := is.New(t)
	zone := time.FixedZone("x", 10*3600)
	d := DeadlineOf(time.Date(2024, 3, 5, 1, 0, 0, 0, zone))
	is.Equal(d, time.Date(2024, 3, 5, 23, 59, 59, 0, time.UTC))
	later := DeadlineOf(time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		old, upd *time.Time
		typ      CommentType
		content  string
		changed  bool
	}{
		{nil, nil, 0, "", false},
		{nil, &d, CommentAddedDeadline, "2024-03-05", true},
		{&d, &later, CommentModifiedDeadline, "2024-04-01|2024-03-05", true},
		{&d, &d, 0, "", false},
		{&d, nil, CommentRemovedDeadline, "2024-03-05", true},
	}
	for _, c := range cases {
		typ, content, changed := DeadlineEvent(c.old, c.upd)
		is.Equal(typ, c.typ)
		is.Equal(content, c.content)
		is.Equal(changed, c.changed)
	}
}

func TestCheckNewDependency(t *testing.T) {
	a, b := &Issue{ID: 1}, &Issue{ID: 2}
	cases := []struct {
		name string
		f    DependencyFacts
		want error
	}{
		{"ok", DependencyFacts{Issue: a, DependsOn: b}, nil},
		{"self", DependencyFacts{Issue: a, DependsOn: a}, errs.ErrInvalid},
		{"twice", DependencyFacts{Issue: a, DependsOn: b, Exists: true}, errs.ErrConflict},
		{"cycle", DependencyFacts{Issue: a, DependsOn: b, Reverse: true}, errs.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckNewDependency(c.f)
			if c.want == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, c.want))
		})
	}
}

func TestPinsAndLocks(t *testing.T) {
	is := is.New(t)
	is.NoErr(CheckNewPin(MaxPinned - 1))
	is.True(errors.Is(CheckNewPin(MaxPinned), errs.ErrBadRequest))
	p, err := PinPosition(5, 3)
	is.NoErr(err)
	is.Equal(p, 3)
	p, err = PinPosition(2, 3)
	is.NoErr(err)
	is.Equal(p, 2)
	_, err = PinPosition(0, 3)
	is.True(errors.Is(err, errs.ErrInvalid))
	is.NoErr(CheckLockReason(""))
	is.NoErr(CheckLockReason("Spam"))
	is.True(errors.Is(CheckLockReason("spam!"), errs.ErrBadRequest))
}

func TestParseTemplate(t *testing.T) {
	t.Run("markdown", func(t *testing.T) {
		is := is.New(t)
		tpl, err := ParseTemplate(".gitea/ISSUE_TEMPLATE/bug.md", []byte("---\nname: Bug\nabout: Report a bug\ntitle: \"[bug] \"\nlabels: bug, triage\nref: main\n---\nSteps:\n"))
		is.NoErr(err)
		is.Equal(tpl.Name, "Bug")
		is.Equal(tpl.About, "Report a bug")
		is.Equal(tpl.Title, "[bug] ")
		is.Equal(tpl.Labels, []string{"bug", "triage"})
		is.Equal(tpl.Assignees, []string{})
		is.Equal(tpl.Ref, "refs/heads/main")
		is.Equal(tpl.Content, "Steps:\n")
		is.True(tpl.Fields == nil)
	})
	t.Run("form", func(t *testing.T) {
		is := is.New(t)
		src := "name: Feature\ndescription: Ask for one\nlabels: [enhancement]\nbody:\n" +
			"- type: markdown\n  attributes:\n    value: Thanks\n" +
			"- type: input\n  id: what\n  attributes:\n    label: What\n  validations:\n    required: true\n" +
			"- type: dropdown\n  attributes:\n    label: Pick\n    options: [a, b]\n"
		tpl, err := ParseTemplate("ISSUE_TEMPLATE/f.yml", []byte(src))
		is.NoErr(err)
		is.Equal(tpl.About, "Ask for one")
		is.Equal(tpl.Labels, []string{"enhancement"})
		is.Equal(len(tpl.Fields), 3)
		is.Equal(tpl.Fields[0].ID, "0")
		is.Equal(tpl.Fields[1].ID, "what")
		is.Equal(tpl.Fields[1].Validations["required"], true)
		is.Equal(tpl.Fields[2].ID, "2")
	})
	bad := map[string]string{
		"x.md":   "no front matter",
		"y.md":   "---\nabout: x\n---\n",
		"z.yaml": "name: a\nabout: b\n",
		"w.yaml": "name: a\nabout: b\nbody:\n- type: nope\n",
		"v.yaml": "name: a\nabout: b\nbody:\n- type: dropdown\n  attributes:\n    label: L\n",
		"u.yaml": "name: [",
		"t.txt":  "name: a",
	}
	for name, src := range bad {
		t.Run("invalid "+name, func(t *testing.T) {
			is := is.New(t)
			_, err := ParseTemplate(name, []byte(src))
			is.True(err != nil)
		})
	}
}

func TestParseTemplateConfig(t *testing.T) {
	is := is.New(t)
	c, err := ParseTemplateConfig([]byte("blank_issues_enabled: false\ncontact_links:\n- name: Forum\n  url: https://example.com\n  about: Ask there\n"))
	is.NoErr(err)
	is.Equal(c.BlankIssuesEnabled, false)
	is.Equal(c.ContactLinks, []ContactLink{{Name: "Forum", URL: "https://example.com", About: "Ask there"}})
	c, err = ParseTemplateConfig([]byte("contact_links:\n- name: Forum\n  url: https://example.com\n"))
	is.Equal(err.Error(), "contact_link at position 1 is missing about key")
	is.Equal(c, DefaultTemplateConfig())
	_, err = ParseTemplateConfig([]byte("contact_links:\n- name: F\n  url: not a url\n  about: a\n"))
	is.True(err != nil)
}
