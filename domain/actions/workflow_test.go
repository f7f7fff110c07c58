package actions

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

func TestWorkflowPushFilters(t *testing.T) {
	w, err := ParseWorkflow("ci.yml", []byte("on:\n  push:\n    branches: [main, 'release/**', '!release/old']\njobs:\n  a:\n    runs-on: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]bool{
		"refs/heads/main": true, "refs/heads/release/v1/x": true, "refs/heads/release/old": false,
		"refs/heads/dev": false, "refs/tags/v1": false,
	} {
		if got := w.MatchesPush(ref); got != want {
			t.Errorf("MatchesPush(%q) = %v, want %v", ref, got, want)
		}
	}
}

func TestWorkflowDispatchInputs(t *testing.T) {
	w, err := ParseWorkflow("d.yml", []byte("on:\n  workflow_dispatch:\n    inputs:\n      n:\n        type: number\n        required: true\n      c:\n        type: choice\n        options: [a, b]\n        default: a\njobs:\n  a:\n    runs-on: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.DispatchInputs(map[string]string{"n": "3"}); err != nil || got["c"] != "a" || got["n"] != "3" {
		t.Errorf("valid inputs: %v %v", got, err)
	}
	for _, in := range []map[string]string{{}, {"n": "x"}, {"n": "1", "c": "z"}, {"n": "1", "other": "1"}} {
		if _, err := w.DispatchInputs(in); !errors.Is(err, errs.ErrInvalid) {
			t.Errorf("inputs %v: %v, want invalid", in, err)
		}
	}
}

func FuzzParseWorkflow(f *testing.F) {
	f.Add([]byte("on: push\njobs:\n  a:\n    runs-on: x\n"))
	f.Add([]byte("on: [push, workflow_dispatch]\njobs: {}\n"))
	f.Add([]byte(":\n- ["))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorkflow("f.yml", data)
		if err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("error of the wrong category: %v", err)
			}
			return
		}
		w.MatchesPush("refs/heads/main")
		_, _ = w.DispatchInputs(map[string]string{"a": "b"})
	})
}
