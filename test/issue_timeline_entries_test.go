package test

import (
	"encoding/json"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// ifEntry is the SDK's TimelineComment with the fields of Gitea's
// TimelineComment the SDK leaves out (old_ref, new_ref, tracked_time). Its
// label shadows the SDK's: Gitea sends one Label object per label event,
// while SDK v0.25.1 declares a list, which cannot decode a real Gitea
// timeline with a label event either.
type ifEntry struct {
	gitea.TimelineComment
	Label       *gitea.Label       `json:"label"`
	OldRef      string             `json:"old_ref"`
	NewRef      string             `json:"new_ref"`
	TrackedTime *gitea.TrackedTime `json:"tracked_time"`
}

// timelineOf reads issue index of exowner/r's timeline as user.
func timelineOf(t *testing.T, w *trackerWorld, index int64, user string) []ifEntry {
	t.Helper()
	r := w.srv.Do("GET", trackerRepo+"/issues/"+itoa64(index)+"/timeline", nil, basicAs(user)...)
	wantStatus(t, r, http.StatusOK)
	var out []ifEntry
	r.Decode(t, &out)
	return out
}

// timelineOfType returns the entries of one type.
func timelineOfType(list []ifEntry, typ string) []ifEntry {
	var out []ifEntry
	for _, e := range list {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// TestIssueRefChangeTimeline checks that changing an issue's ref leaves Gitea's
// change_issue_ref event (branch names without refs/heads/), only when the
// ref changes and only for those who may edit the issue.
func TestIssueRefChangeTimeline(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		one := w.issue(t, w.owner, "one")
		edit := func(c *gitea.Client, ref string) error {
			_, _, err := c.EditIssue("exowner", "r", one.Index, gitea.EditIssueOption{Ref: &ref})
			return err
		}
		is.NoErr(edit(w.owner, "refs/heads/feature"))
		is.NoErr(edit(w.writer, "v1.0"))
		is.NoErr(edit(w.writer, "v1.0")) // unchanged: no event

		// A stranger may not edit someone else's issue: 403 and no event.
		ref := "refs/heads/evil"
		r := w.srv.Do("PATCH", trackerRepo+"/issues/1", gitea.EditIssueOption{Ref: &ref}, basicAs("exstranger")...)
		wantStatus(t, r, http.StatusForbidden)

		got, _, err := w.owner.GetIssue("exowner", "r", one.Index)
		is.NoErr(err)
		is.Equal(got.Ref, "v1.0")

		// The SDK's own type decodes the events.
		sdk, _, err := w.stranger.ListIssueTimeline("exowner", "r", one.Index, gitea.ListIssueCommentOptions{})
		is.NoErr(err)
		is.Equal(len(sdk), 2)
		is.Equal(sdk[0].Type, "change_issue_ref")
		is.Equal(sdk[0].Poster.UserName, "exowner")
		is.Equal(sdk[1].Poster.UserName, "exwriter")

		refs := timelineOfType(timelineOf(t, w, one.Index, "exstranger"), "change_issue_ref")
		is.Equal(len(refs), 2)
		is.Equal(refs[0].OldRef, "")
		is.Equal(refs[0].NewRef, "feature") // refs/heads/ trimmed, as Gitea records it
		is.Equal(refs[1].OldRef, "feature")
		is.Equal(refs[1].NewRef, "v1.0")
		is.Equal(refs[1].Body, "")

		// Clearing the ref is a change too.
		is.NoErr(edit(w.owner, ""))
		refs = timelineOfType(timelineOf(t, w, one.Index, "exowner"), "change_issue_ref")
		is.Equal(len(refs), 3)
		is.Equal(refs[2].OldRef, "v1.0")
		is.Equal(refs[2].NewRef, "")

		// The plain comment listing does not show events.
		comments, _, err := w.owner.ListIssueComments("exowner", "r", one.Index, gitea.ListIssueCommentOptions{})
		is.NoErr(err)
		is.Equal(len(comments), 0)
	})
}

// TestIssueTimelineTrackedTime checks that time events embed the tracked
// time they record (Gitea's TrackedTime, with its user's name and issue),
// show their duration as Gitea does, and lose it once the time is deleted.
func TestIssueTimelineTrackedTime(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		one := w.issue(t, w.owner, "one")

		mine, _, err := w.owner.AddTime("exowner", "r", one.Index, gitea.AddTimeOption{Time: 5400})
		is.NoErr(err)
		theirs, _, err := w.admin.AddTime("exowner", "r", one.Index, gitea.AddTimeOption{Time: 45, User: "exwriter"})
		is.NoErr(err)
		_, err = w.writer.StartIssueStopWatch("exowner", "r", one.Index)
		is.NoErr(err)
		_, err = w.writer.StopIssueStopWatch("exowner", "r", one.Index)
		is.NoErr(err)

		list := timelineOf(t, w, one.Index, "exstranger")
		added := timelineOfType(list, "add_time_manual")
		is.Equal(len(added), 2)
		tt := added[0].TrackedTime
		is.True(tt != nil)
		is.Equal(tt.ID, mine.ID)
		is.Equal(tt.Time, int64(5400))
		is.Equal(tt.UserID, mine.UserID)
		is.Equal(tt.UserName, "exowner")
		is.Equal(tt.IssueID, one.ID)
		is.True(tt.Created.Equal(mine.Created))
		is.True(tt.Issue != nil) // the issue, rendered as the issue routes do
		is.Equal(tt.Issue.Index, one.Index)
		is.Equal(tt.Issue.Title, "one")
		is.Equal(tt.Issue.Repository.FullName, "exowner/r")
		is.Equal(added[0].Body, "1 hour 30 minutes") // Gitea's duration, not the stored "|5400"

		is.Equal(added[1].TrackedTime.ID, theirs.ID)
		is.Equal(added[1].TrackedTime.UserName, "exwriter") // booked for the writer
		is.Equal(added[1].Body, "45 seconds")

		stops := timelineOfType(list, "stop_tracking")
		is.Equal(len(stops), 1)
		is.True(stops[0].TrackedTime != nil)
		is.Equal(stops[0].TrackedTime.UserName, "exwriter")
		is.Equal(timelineOfType(list, "start_tracking")[0].TrackedTime, nil) // no time yet

		// Every other event still has none.
		for _, e := range list {
			if e.Type != "add_time_manual" && e.Type != "stop_tracking" {
				is.Equal(e.TrackedTime, nil)
			}
		}

		// Deleting a time keeps its event, without the time (Depot deletes
		// the row where Gitea only marks it), and adds a delete_time_manual.
		_, err = w.owner.DeleteTime("exowner", "r", one.Index, mine.ID)
		is.NoErr(err)
		list = timelineOf(t, w, one.Index, "exowner")
		added = timelineOfType(list, "add_time_manual")
		is.Equal(added[0].TrackedTime, nil)
		is.Equal(added[1].TrackedTime.ID, theirs.ID)
		deleted := timelineOfType(list, "delete_time_manual")
		is.Equal(len(deleted), 1)
		is.Equal(deleted[0].Body, "1 hour 30 minutes")
		is.Equal(deleted[0].TrackedTime, nil)

		// Paging: the page holding only the second time event embeds it.
		r := w.srv.Do("GET", trackerRepo+"/issues/1/timeline?page=2&limit=1", nil, basicAs("exowner")...)
		wantStatus(t, r, http.StatusOK)
		var page []ifEntry
		r.Decode(t, &page)
		is.Equal(len(page), 1)
		is.Equal(page[0].TrackedTime.ID, theirs.ID)
		is.Equal(page[0].TrackedTime.Issue.Index, one.Index)

		// A private repository's timeline stays hidden from outsiders.
		private := true
		_, _, err = w.owner.EditRepo("exowner", "r", gitea.EditRepoOption{Private: &private})
		is.NoErr(err)
		r = w.srv.Do("GET", trackerRepo+"/issues/1/timeline", nil, basicAs("exstranger")...)
		wantStatus(t, r, http.StatusNotFound)
	})
}

// TestIssueTimelineLabel checks the label of label events: one Label
// object per event, as Gitea 1.27 sends it (its TimelineComment.label).
func TestIssueTimelineLabel(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		one := w.issue(t, w.owner, "one")
		bug, _, err := w.owner.CreateLabel("exowner", "r", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
		is.NoErr(err)
		ux, _, err := w.owner.CreateLabel("exowner", "r", gitea.CreateLabelOption{Name: "ux", Color: "#00aabb"})
		is.NoErr(err)
		_, _, err = w.writer.AddIssueLabels("exowner", "r", one.Index, gitea.IssueLabelsOption{Labels: []int64{bug.ID, ux.ID}})
		is.NoErr(err)
		_, err = w.writer.DeleteIssueLabel("exowner", "r", one.Index, bug.ID)
		is.NoErr(err)

		// On the wire: an object, never a list.
		r := w.srv.Do("GET", trackerRepo+"/issues/1/timeline", nil, basicAs("exstranger")...)
		wantStatus(t, r, http.StatusOK)
		var raw []map[string]json.RawMessage
		r.Decode(t, &raw)
		is.Equal(len(raw), 3)
		for _, e := range raw {
			is.Equal(string(e["type"]), `"label"`)
			is.Equal(e["label"][0], byte('{'))
		}

		labels := timelineOfType(timelineOf(t, w, one.Index, "exstranger"), "label")
		is.Equal(len(labels), 3)
		is.Equal(labels[0].Label.ID, bug.ID)
		is.Equal(labels[0].Label.Name, "bug")
		is.Equal(labels[0].Label.Color, "ee0701")
		is.Equal(labels[0].Label.URL, w.srv.URL+"/api/v1/repos/exowner/r/labels/"+itoa64(bug.ID))
		is.Equal(labels[0].Body, "1") // added
		is.Equal(labels[1].Label.Name, "ux")
		is.Equal(labels[2].Label.ID, bug.ID)
		is.Equal(labels[2].Body, "") // removed
		is.Equal(labels[2].Poster.UserName, "exwriter")
		is.Equal(len(labels[2].TimelineComment.Label), 0) // the SDK's list is shadowed, never filled
	})
}
