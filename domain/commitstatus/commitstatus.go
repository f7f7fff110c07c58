// Package commitstatus holds the rules of commit statuses: the states an
// external system (CI, a linter, a deployment) reports on a commit, what a
// valid report is, how the latest report of each context is chosen and how
// those combine into one state for the commit. It is pure: no I/O.
package commitstatus

import (
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// State is what a status says about its commit.
type State string

// The states, spelled as in Gitea's API (1.24 added skipped).
const (
	Pending State = "pending"
	Success State = "success"
	Error   State = "error"
	Failure State = "failure"
	Warning State = "warning"
	Skipped State = "skipped"
)

// States lists every state, for messages and tests.
var States = []State{Pending, Success, Error, Failure, Warning, Skipped}

// Valid reports whether s is one of the known states.
func (s State) Valid() bool {
	switch s {
	case Pending, Success, Error, Failure, Warning, Skipped:
		return true
	}
	return false
}

// DefaultContext is the context of a status reported without one, as on
// GitHub, so that such reports still supersede each other.
const DefaultContext = "default"

// The longest fields accepted. Gitea keeps them as unbounded text; bounds
// keep one report from filling the database and let context be indexed.
const (
	MaxContextLength     = 255
	MaxDescriptionLength = 1024
	MaxTargetURLLength   = 2048
)

// Status is one report on one commit of a repository.
type Status struct {
	ID     int64
	RepoID int64
	// SHA is the full, lower-case commit id.
	SHA string
	// Index counts the statuses of (RepoID, SHA) from 1, in creation order;
	// the API shows it as the status's id, as Gitea does.
	Index       int64
	State       State
	TargetURL   string
	Description string
	Context     string
	CreatorID   int64
	Created     time.Time
	Updated     time.Time
}

// Report is what a caller asks to record, before validation.
type Report struct {
	State       string
	TargetURL   string
	Description string
	Context     string
}

// Validate checks r and returns it normalised: text trimmed of surrounding
// white space (as Gitea does) and an empty context made DefaultContext.
// Failures are errs.Invalid naming the body field as Gitea's binding does.
func (r Report) Validate() (Report, error) {
	r.State = strings.TrimSpace(r.State)
	r.TargetURL = strings.TrimSpace(r.TargetURL)
	r.Description = strings.TrimSpace(r.Description)
	r.Context = strings.TrimSpace(r.Context)
	if r.State == "" {
		return r, errs.Invalid("Required", "State")
	}
	if !State(r.State).Valid() {
		return r, errs.Invalid("must be one of "+stateList(), "State")
	}
	if r.TargetURL != "" {
		if err := validateTargetURL(r.TargetURL); err != nil {
			return r, err
		}
	}
	if err := validateText("Description", r.Description, MaxDescriptionLength); err != nil {
		return r, err
	}
	if r.Context == "" {
		r.Context = DefaultContext
	}
	if err := validateText("Context", r.Context, MaxContextLength); err != nil {
		return r, err
	}
	return r, nil
}

func stateList() string {
	names := make([]string, len(States))
	for i, s := range States {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// validateTargetURL accepts absolute http and https addresses only: the
// address is shown as a link, so other schemes (javascript:, file:) are out.
func validateTargetURL(s string) error {
	if len(s) > MaxTargetURLLength {
		return errs.Invalid("MaxSize", "TargetURL")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || hasControl(s) || !utf8.ValidString(s) {
		return errs.Invalid("Url", "TargetURL")
	}
	return nil
}

func validateText(field, s string, max int) error {
	if !utf8.ValidString(s) || hasControl(s) {
		return errs.Invalid("must be valid UTF-8 text without control characters", field)
	}
	if utf8.RuneCountInString(s) > max {
		return errs.Invalid("MaxSize", field)
	}
	return nil
}

// hasControl reports a NUL or another control character other than tab and
// new lines, which no status text needs and some databases refuse.
func hasControl(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return true
		}
	}
	return false
}

// Combine is the combined state of a commit from the latest status of each
// of its contexts, by Gitea 1.27's rule (modules/commitstatus,
// CommitStatusStates.Combine, since go-gitea/gitea#37048 and its 1.25
// backport #37075, "treat warning as error"): failure when any is an error, a
// failure or a warning; success when every one is a success or skipped;
// pending otherwise (a pending context, or a state Gitea does not know).
// With no statuses at all it is "", which is what Gitea's combined-status
// route answers then (CalcCommitStatus returns nil).
func Combine(states []State) State {
	counts := make(map[State]int64, len(States))
	for _, s := range states {
		counts[s]++
	}
	return CombineCounts(counts)
}

// CombineCounts is Combine over how many latest statuses are in each state,
// which a store can count without loading the statuses.
func CombineCounts(counts map[State]int64) State {
	var total, succeeded int64
	for s, n := range counts {
		total += n
		switch s {
		case Error, Failure, Warning:
			if n > 0 {
				return Failure
			}
		case Success, Skipped:
			succeeded += n
		}
	}
	switch {
	case total == 0:
		return ""
	case succeeded == total:
		return Success
	}
	return Pending
}

// CombineStatuses is Combine over the states of list.
func CombineStatuses(list []*Status) State {
	states := make([]State, len(list))
	for i, s := range list {
		states[i] = s.State
	}
	return Combine(states)
}

// Latest keeps the latest status (the highest index) of each context among
// the statuses of one commit, newest first. Stores answer the same selection
// in SQL; this is its definition.
func Latest(list []*Status) []*Status {
	latest := map[string]*Status{}
	for _, s := range list {
		if cur, ok := latest[s.Context]; !ok || s.Index > cur.Index {
			latest[s.Context] = s
		}
	}
	out := make([]*Status, 0, len(latest))
	for _, s := range latest {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index > out[j].Index })
	return out
}

// Sort is an order of a commit's status listing, named as in Gitea's API.
type Sort string

// The listing orders. Gitea names them this way, including the two index
// orders whose names read the other way round from what they do
// (leastindex lists the highest index first); clients see Gitea's behaviour.
const (
	// SortNewest, the default, lists the most recently created first.
	SortNewest Sort = ""
	// SortOldest lists the earliest created first.
	SortOldest Sort = "oldest"
	// SortRecentUpdate lists the most recently updated first.
	SortRecentUpdate Sort = "recentupdate"
	// SortLeastUpdate lists the least recently updated first.
	SortLeastUpdate Sort = "leastupdate"
	// SortLeastIndex lists by index, highest first (Gitea's meaning).
	SortLeastIndex Sort = "leastindex"
	// SortHighestIndex lists by index, lowest first (Gitea's meaning).
	SortHighestIndex Sort = "highestindex"
)

// ParseSort reads a sort query value; an unknown or empty one is the
// default order, as in Gitea.
func ParseSort(s string) Sort {
	switch v := Sort(strings.TrimSpace(s)); v {
	case SortOldest, SortRecentUpdate, SortLeastUpdate, SortLeastIndex, SortHighestIndex:
		return v
	}
	return SortNewest
}

// ParseStateFilter reads a state query value: a known state filters the
// listing, anything else (empty or unknown) lists every state, as in Gitea.
func ParseStateFilter(s string) State {
	if v := State(strings.TrimSpace(s)); v.Valid() {
		return v
	}
	return ""
}
