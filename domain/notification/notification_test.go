package notification

import "testing"

func TestNotificationParseStatus(t *testing.T) {
	for in, want := range map[string]Status{"unread": StatusUnread, "READ": StatusRead, " pinned": StatusPinned, "nope": 0, "": 0} {
		got, err := ParseStatus(in)
		if got != want || (want == 0) != (err != nil) {
			t.Errorf("ParseStatus(%q) = %v, %v; want %v", in, got, err, want)
		}
		if want != 0 && got.String() == "" {
			t.Errorf("%v has no name", got)
		}
	}
}

func TestNotificationParseSubjectType(t *testing.T) {
	for in, want := range map[string]SubjectType{"issue": SubjectIssue, "Pull": SubjectPull, "commit": SubjectCommit, "repository": SubjectRepository, "release": ""} {
		got, err := ParseSubjectType(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("ParseSubjectType(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestNotificationSubjectKey(t *testing.T) {
	if SubjectKey(SubjectPull, 7, "", 1) != SubjectKey(SubjectIssue, 7, "", 2) {
		t.Error("an issue and its pull request share one key")
	}
	if SubjectKey(SubjectCommit, 0, "abc", 1) == SubjectKey(SubjectCommit, 0, "abc", 2) {
		t.Error("commits of two repositories share a key")
	}
}

func FuzzNotificationParseStatus(f *testing.F) {
	f.Add("unread")
	f.Fuzz(func(t *testing.T, s string) {
		if st, err := ParseStatus(s); err == nil && st.String() == "" {
			t.Fatal("parsed a status without a name")
		}
	})
}

func FuzzNotificationParseSubjectType(f *testing.F) {
	f.Add("pull")
	f.Fuzz(func(t *testing.T, s string) {
		if st, err := ParseSubjectType(s); err == nil && SubjectKey(st, 1, "c", 1) == "" {
			t.Fatal("parsed a subject without a key")
		} else if err != nil && st != "" {
			t.Fatal("a refused subject type came with a value")
		}
	})
}
