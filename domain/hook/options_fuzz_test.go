package hook

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// FuzzNewHook fuzzes the create-hook options as a client sends them:
// a hook is either refused with a 422 naming one of the body's fields, or
// created holding only values that are safe to deliver with.
func FuzzNewHook(f *testing.F) {
	f.Add("gitea", "https://example.com/h", "json", "POST", "#dev", "push,issues", "main", "Bearer x")
	f.Add("slack", "http://h", "form", "get", "a b", "pull_request", "{a,b", "x\r\nEvil: 1")
	f.Add("discord", "ftp://h", "xml", "DELETE", "", "nope", "*", "")
	f.Add("", "", "", "", "", "", "", "")
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, typ, url, contentType, method, channel, events, filter, auth string) {
		o := CreateOptions{Type: typ, Config: map[string]string{ConfigURL: url, ConfigContentType: contentType,
			ConfigHTTPMethod: method, "channel": channel}, BranchFilter: filter, AuthorizationHeader: auth}
		if events != "" {
			o.Events = strings.Split(events, ",")
		}
		h, err := New(RepoScope(1), o, now)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || len(e.Fields) != 1 ||
				!slices.Contains([]string{"Type", "Config", "Events", "BranchFilter", "AuthorizationHeader"}, e.Fields[0]) {
				t.Fatalf("New refused with %v (%T), not a 422 on a body field", err, err)
			}
			return
		}
		if ValidateURL(h.URL) != nil || strings.ContainsAny(h.AuthorizationHeader, "\r\n") ||
			ValidateBranchFilter(h.BranchFilter) != nil || len(h.Events) == 0 {
			t.Fatalf("New kept unsafe values: %+v", h)
		}
		switch h.HTTPMethod {
		case MethodPost, MethodGet, MethodPut:
		default:
			t.Fatalf("New kept method %q", h.HTTPMethod)
		}
		// Normalised events are a fixed point.
		again, err := NormalizeEvents(h.Events)
		if err != nil || !slices.Equal(again, h.Events) {
			t.Fatalf("events %q normalise to %q, %v", h.Events, again, err)
		}
		// An edit with the same options keeps the hook as it is.
		e, err := Edit(h, EditOptions{Config: o.Config, Events: h.Events, BranchFilter: &h.BranchFilter,
			AuthorizationHeader: &h.AuthorizationHeader}, now)
		if err != nil || e.URL != h.URL || e.HTTPMethod != h.HTTPMethod || !slices.Equal(e.Events, h.Events) {
			t.Fatalf("re-applying the options changed the hook: %+v, %v", e, err)
		}
	})
}
