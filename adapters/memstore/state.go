package memstore

import (
	"maps"
	"slices"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// pair keys a row that ties two ids (user and repository, team and user…).
type pair struct{ a, b int64 }

// ownerName keys an old name of an owner's repository.
type ownerName struct {
	ownerID int64
	name    string
}

// topicRow is one topic.
type topicRow struct {
	id               int64
	name             string
	created, updated time.Time
}

// orgRow holds an organisation's own settings beside its account row.
type orgRow struct {
	repoAdminChangeTeamAccess bool
}

// memberRow is one user's membership of an organisation.
type memberRow struct {
	public bool
}

// state is every table. Rows are stored as values and never changed in
// place (a write stores a new value), so clone copies only the maps.
type state struct {
	seq map[string]int64

	users         map[int64]user.User
	userRedirects map[string]int64
	emails        map[int64]user.Email
	tokens        map[int64]token.AccessToken

	repos         map[int64]repository.Repository
	repoRedirects map[ownerName]int64
	collaborators map[pair]repository.Collaborator // repo, user
	deployKeys    map[int64]repository.DeployKey
	topics        map[string]topicRow
	repoTopics    map[int64][]string
	stars         map[pair]time.Time   // user, repo
	watches       map[pair]ports.Watch // user, repo
	transfers     map[int64]repository.Transfer

	orgs      map[int64]orgRow
	members   map[pair]memberRow // org, user
	teams     map[int64]org.Team
	teamUsers map[pair]bool // team, user
	teamRepos map[pair]bool // team, repo
	blocks    map[int64]user.Block
	follows   map[pair]int64 // user, followed: the follow's order

	issues      map[int64]issue.Issue
	nextIndex   map[int64]int64 // repo: last index given
	assignees   map[int64][]int64
	comments    map[int64]issue.Comment
	labels      map[int64]issue.Label
	issueLabels map[pair]bool // issue, label
	milestones  map[int64]issue.Milestone
	reactions   map[int64]issue.Reaction
	attachments map[int64]issue.Attachment
	times       map[int64]trackedTimeRow
	stopwatches map[int64]issue.Stopwatch
	deps        map[pair]int64 // issue, depends on: link order
	issueWatch  map[pair]bool  // issue, user

	pulls      map[int64]pull.PullRequest
	autoMerges map[int64]pull.AutoMerge // by pull request
	reviews    map[int64]pull.Review

	tagRules map[int64]protection.TagRule
}

func newState() *state {
	return &state{
		seq:   map[string]int64{},
		users: map[int64]user.User{}, userRedirects: map[string]int64{},
		emails: map[int64]user.Email{}, tokens: map[int64]token.AccessToken{},
		repos: map[int64]repository.Repository{}, repoRedirects: map[ownerName]int64{},
		collaborators: map[pair]repository.Collaborator{}, deployKeys: map[int64]repository.DeployKey{}, topics: map[string]topicRow{},
		repoTopics: map[int64][]string{}, stars: map[pair]time.Time{}, watches: map[pair]ports.Watch{},
		transfers: map[int64]repository.Transfer{},
		orgs:      map[int64]orgRow{}, members: map[pair]memberRow{}, teams: map[int64]org.Team{},
		teamUsers: map[pair]bool{}, teamRepos: map[pair]bool{}, blocks: map[int64]user.Block{},
		follows: map[pair]int64{},
		issues:  map[int64]issue.Issue{}, nextIndex: map[int64]int64{}, assignees: map[int64][]int64{},
		comments: map[int64]issue.Comment{}, labels: map[int64]issue.Label{}, issueLabels: map[pair]bool{},
		milestones: map[int64]issue.Milestone{}, reactions: map[int64]issue.Reaction{},
		attachments: map[int64]issue.Attachment{}, times: map[int64]trackedTimeRow{},
		stopwatches: map[int64]issue.Stopwatch{},
		deps:        map[pair]int64{}, issueWatch: map[pair]bool{},
		pulls: map[int64]pull.PullRequest{}, autoMerges: map[int64]pull.AutoMerge{}, reviews: map[int64]pull.Review{},
		tagRules: map[int64]protection.TagRule{},
	}
}

func (s *state) clone() *state {
	return &state{
		seq:   maps.Clone(s.seq),
		users: maps.Clone(s.users), userRedirects: maps.Clone(s.userRedirects),
		emails: maps.Clone(s.emails), tokens: maps.Clone(s.tokens),
		repos: maps.Clone(s.repos), repoRedirects: maps.Clone(s.repoRedirects),
		collaborators: maps.Clone(s.collaborators), deployKeys: maps.Clone(s.deployKeys), topics: maps.Clone(s.topics),
		repoTopics: maps.Clone(s.repoTopics), stars: maps.Clone(s.stars), watches: maps.Clone(s.watches),
		transfers: maps.Clone(s.transfers),
		orgs:      maps.Clone(s.orgs), members: maps.Clone(s.members), teams: maps.Clone(s.teams),
		teamUsers: maps.Clone(s.teamUsers), teamRepos: maps.Clone(s.teamRepos), blocks: maps.Clone(s.blocks),
		follows: maps.Clone(s.follows),
		issues:  maps.Clone(s.issues), nextIndex: maps.Clone(s.nextIndex), assignees: maps.Clone(s.assignees),
		comments: maps.Clone(s.comments), labels: maps.Clone(s.labels), issueLabels: maps.Clone(s.issueLabels),
		milestones: maps.Clone(s.milestones), reactions: maps.Clone(s.reactions),
		attachments: maps.Clone(s.attachments), times: maps.Clone(s.times),
		stopwatches: maps.Clone(s.stopwatches),
		deps:        maps.Clone(s.deps), issueWatch: maps.Clone(s.issueWatch),
		pulls: maps.Clone(s.pulls), autoMerges: maps.Clone(s.autoMerges), reviews: maps.Clone(s.reviews),
		tagRules: maps.Clone(s.tagRules),
	}
}

// next returns the next id of a table (ids start at 1 and are never reused).
func (s *state) next(table string) int64 {
	s.seq[table]++
	return s.seq[table]
}

// page cuts one page of list by opts (a limit of 0 or less keeps all).
func page[T any](list []T, opts ports.ListOptions) []T {
	o := opts.Clamped()
	if o.Limit <= 0 {
		return list
	}
	off := opts.Offset()
	if off >= len(list) {
		return []T{}
	}
	return list[off:min(off+o.Limit, len(list))]
}

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[V any](m map[int64]V) []int64 {
	return slices.Sorted(maps.Keys(m))
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// timePtr copies a time pointer so callers never share it with the store.
func timePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}
