package actions

import (
	"strings"
	"testing"
)

func TestRunStatus(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{StatusWaiting, StatusBlocked}, StatusWaiting},
		{[]string{StatusBlocked}, StatusBlocked},
		{[]string{StatusRunning, StatusBlocked}, StatusRunning},
		{[]string{StatusSuccess, StatusWaiting}, StatusRunning},
		{[]string{StatusSuccess, StatusSkipped}, StatusSuccess},
		{[]string{StatusSuccess, StatusFailure, StatusCancelled}, StatusFailure},
		{[]string{StatusSuccess, StatusCancelled}, StatusCancelled},
	} {
		if got := RunStatus(c.in); got != c.want {
			t.Errorf("RunStatus(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestReleaseBlocked(t *testing.T) {
	jobs := []*RunJob{
		{ID: 1, JobID: "build", Status: StatusSuccess},
		{ID: 2, JobID: "lint", Status: StatusFailure},
		{ID: 3, JobID: "test", Needs: []string{"build"}, Status: StatusBlocked},
		{ID: 4, JobID: "deploy", Needs: []string{"build", "lint"}, Status: StatusBlocked},
		{ID: 5, JobID: "later", Needs: []string{"test"}, Status: StatusBlocked},
	}
	got := ReleaseBlocked(jobs)
	want := []JobUpdate{{3, StatusWaiting}, {4, StatusSkipped}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("ReleaseBlocked = %v, want %v", got, want)
	}
}

func TestSingleJobWorkflow(t *testing.T) {
	src := "name: ci\non: push\njobs:\n  build:\n    runs-on: linux\n    steps:\n      - run: make\n  test:\n    runs-on: linux\n"
	out, err := SingleJobWorkflow([]byte(src), "test")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWorkflow("ci.yml", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 1 || w.Jobs[0].ID != "test" || w.Name != "ci" || w.Push == nil {
		t.Fatalf("got %+v from %s", w, out)
	}
	if _, err := SingleJobWorkflow([]byte(src), "nope"); err == nil {
		t.Fatal("missing job accepted")
	}
	if _, err := SingleJobWorkflow([]byte("[1"), "x"); err == nil || !strings.Contains(err.Error(), "workflow") {
		t.Fatalf("bad yaml: %v", err)
	}
}

func TestRunnerRules(t *testing.T) {
	r := &Runner{TokenHash: HashRunnerToken("secret"), Scope: OwnerScope(7)}
	if !r.TokenMatches("secret") || r.TokenMatches("secreT") || r.TokenMatches("") {
		t.Fatal("token compare")
	}
	if !r.CanRun(7, 3) || r.CanRun(8, 3) {
		t.Fatal("owner scope")
	}
	if !(&Runner{}).CanRun(1, 2) || (&Runner{Scope: RepoScope(2)}).CanRun(1, 3) {
		t.Fatal("site or repo scope")
	}
	if got := RunnerLabels([]string{" a", "b", "a", "", "c\nd"}); strings.Join(got, ",") != "a,b" {
		t.Fatalf("labels %v", got)
	}
	if got := RunnerName(strings.Repeat("é", 200)); len(got) != 254 {
		t.Fatalf("name cut to %d bytes", len(got))
	}
	if u := NewRunnerUUID(); len(u) != 36 || u[14] != '4' {
		t.Fatalf("uuid %s", u)
	}
}
