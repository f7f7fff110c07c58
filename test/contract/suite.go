// Package contract holds the behaviour every implementation of the store
// ports must share. The SQL adapter runs the whole suite on SQLite and
// Postgres (RunStoreSuite); the in-memory fake of adapters/memstore runs the
// groups it implements (RunStoreGroups), so the application and its unit
// tests can rely on the port's documentation rather than on one backend's
// quirks.
package contract

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// RunStoreSuite runs every group of the contract: the account stores
// (UserStore, EmailStore, AccessTokenStore, PublicKeyStore), the repository
// stores (RepoStore, CollaboratorStore, DeployKeyStore, TopicStore,
// StarStore, WatchStore, TransferStore), commit statuses, jobs, mirrors,
// hooks, organisations and blocks, the issue stores and Transactor. open
// must give each call a fresh, empty, migrated database (and the
// transaction runner bound to it): every subtest opens its own, so subtests
// run in parallel and counts are exact.
func RunStoreSuite(t *testing.T, open func(t *testing.T) (ports.Stores, ports.Transactor)) {
	t.Helper()
	RunStoreGroups(t, open, storeGroupOrder...)
}

// RunStoreGroups runs only the named groups of the suite, in the suite's
// order, for an adapter that implements some of the stores (a group is
// passed whole or not run). An unknown name fails the test.
func RunStoreGroups(t *testing.T, open func(t *testing.T) (ports.Stores, ports.Transactor), names ...string) {
	t.Helper()
	groups := storeGroups()
	want := map[string]bool{}
	for _, n := range names {
		if groups[n] == nil {
			t.Fatalf("contract: no store group %q", n)
		}
		want[n] = true
	}
	for _, group := range storeGroupOrder {
		if !want[group] {
			continue
		}
		t.Run(group, func(t *testing.T) {
			for name, test := range groups[group] {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					stores, tx := open(t)
					test(t, &fixture{t: t, ctx: t.Context(), Stores: stores, tx: tx})
				})
			}
		})
	}
}

// storeGroupOrder is the order the suite runs its groups in.
var storeGroupOrder = []string{
	"Users", "Emails", "EmailsBatch", "Tokens", "InTx",
	"Repos", "RepoSearch", "Collaborators", "DeployKeys", "Topics", "Stars", "Watches", "Transfers",
	"ReposEmpty", "PublicKeys", "GPGKeys", "BranchProtections", "TagProtections", "Releases", "ReleaseAssets", "UploadRefs",
	"CommitStatuses",
	"Jobs", "Mirrors", "Hooks", "HookDeliveries",
	"Orgs", "OrgTeams", "Blocks", "Follows",
	"Issues", "Labels", "Comments", "IssueExtras", "IssueBatchLookups",
	"Pulls", "PullReviews",
	"ActionVariables",
	"ActionSecrets",
	"ActionRuns",
	"ActionRunners",
	"ActionTasks",
	"UserBadges",
	"OAuth2Apps",
	"Packages",
	"PackageCleanupRules",
	"Activities",
	"Notifications",
	"CronTasks",
	"WebSessions",
	"ActorKeys",
	"ActivityPubInbox",
}

// storeGroups are the suite's tests by group and name.
func storeGroups() map[string]map[string]func(t *testing.T, f *fixture) {
	return map[string]map[string]func(t *testing.T, f *fixture){
		"Users":  userTests,
		"Emails": emailTests,
		"Tokens": tokenTests,
		"InTx":   txTests,

		"EmailsBatch": emailBatchTests,

		"Repos":         repoTests,
		"RepoSearch":    repoSearchTests,
		"Collaborators": collaboratorTests,
		"DeployKeys":    deployKeyTests,
		"Topics":        topicTests,
		"Stars":         starTests,
		"Watches":       watchTests,
		"Transfers":     transferTests,
		"ReposEmpty":    repoEmptyTests,
		"PublicKeys":    publicKeyTests,
		"GPGKeys":       gpgKeyTests,

		"BranchProtections": branchProtectionTests,
		"TagProtections":    tagProtectionTests,
		"Releases":          releaseTests,
		"ReleaseAssets":     releaseAssetTests,
		"UploadRefs":        uploadRefTests,

		"CommitStatuses": statusTests,

		"Jobs":           jobTests,
		"Mirrors":        mirrorTests,
		"Hooks":          hookTests,
		"HookDeliveries": hookDeliveryTests,

		"Orgs":     orgTests,
		"OrgTeams": orgTeamTests,
		"Blocks":   blockTests,
		"Follows":  followTests,

		"Issues":            issueTests,
		"Labels":            labelTests,
		"Comments":          commentTests,
		"IssueExtras":       issueExtraTests,
		"IssueBatchLookups": issueBatchLookupTests,

		"Pulls":       pullTests,
		"PullReviews": pullReviewTests,

		"ActionVariables":     actionVariableTests,
		"ActionSecrets":       actionSecretTests,
		"ActionRuns":          actionRunTests,
		"ActionRunners":       actionRunnerTests,
		"ActionTasks":         actionTaskTests,
		"UserBadges":          userBadgeTests,
		"OAuth2Apps":          oauth2AppTests,
		"Packages":            packageTests,
		"PackageCleanupRules": packageCleanupRuleTests,
		"Activities":          activityTests,
		"Notifications":       notificationTests,
		"CronTasks":           cronTaskTests,
		"ActorKeys":           actorKeyTests,
		"ActivityPubInbox":    activityPubInboxTests,
		"WebSessions":         webSessionTests,
	}
}

// fixture is one subtest's database and helpers to fill it.
type fixture struct {
	t   *testing.T
	ctx context.Context
	ports.Stores
	tx ports.Transactor
}

// at is a fixed instant at microsecond precision, which every backend keeps.
func at(minute int) time.Time {
	return time.Date(2024, 5, 17, 10, minute, 30, 123456000, time.UTC)
}

// newUser is a fully populated individual, so a round trip checks every column.
func newUser(name string) *user.User {
	return &user.User{
		Name: name, LowerName: strings.ToLower(name), Kind: user.KindIndividual,
		FullName: "Full " + name, Email: strings.ToLower(name) + "@example.com",
		PasswordHash: "hash$" + name, PasswordVersion: 3,
		IsAdmin: true, IsActive: true, ProhibitLogin: true, MustChangePassword: true, IsRestricted: true,
		Visibility: user.VisibilityPublic, Location: "Berlin", Website: "https://example.com",
		Description: "about " + name, Language: "en-US", Theme: "dark", DiffView: "unified",
		HideEmail: true, HideActivity: true, AllowGitHook: true, AllowImportLocal: true,
		AllowCreateOrganization: true, MaxRepoCreation: -1, TOTPSecret: "JBSWY3DPEHPK3PXP",
		Created: at(1), Updated: at(2), LastLogin: at(3),
	}
}

func (f *fixture) user(name string, edit ...func(u *user.User)) *user.User {
	f.t.Helper()
	u := newUser(name)
	for _, e := range edit {
		e(u)
	}
	if err := f.Users.Create(f.ctx, u); err != nil {
		f.t.Fatalf("create user %q: %v", name, err)
	}
	if u.ID == 0 {
		f.t.Fatalf("create user %q: id not set", name)
	}
	return u
}

func (f *fixture) email(userID int64, addr string, primary bool) *user.Email {
	f.t.Helper()
	e := &user.Email{UserID: userID, Email: addr, LowerEmail: strings.ToLower(addr), Activated: true, Primary: primary}
	if err := f.Emails.Add(f.ctx, e); err != nil {
		f.t.Fatalf("add email %q: %v", addr, err)
	}
	if e.ID == 0 {
		f.t.Fatalf("add email %q: id not set", addr)
	}
	return e
}

func (f *fixture) token(userID int64, name, lastEight string) *token.AccessToken {
	f.t.Helper()
	tk := newToken(userID, name, lastEight)
	if err := f.Tokens.Create(f.ctx, tk); err != nil {
		f.t.Fatalf("create token %q: %v", name, err)
	}
	if tk.ID == 0 {
		f.t.Fatalf("create token %q: id not set", name)
	}
	return tk
}

func newToken(userID int64, name, lastEight string) *token.AccessToken {
	return &token.AccessToken{
		UserID: userID, Name: name, Hash: "hash-" + name + "-" + lastEight + "-" + strconv.FormatInt(userID, 10),
		Salt: "salt-" + name, LastEight: lastEight,
		Scopes:  token.Scopes{"read:repository", "write:user"},
		Created: at(5),
	}
}

func newTokenFor(userID int64) *token.AccessToken { return newToken(userID, "default", "abcdef01") }

func newEmailFor(userID int64, addr string) *user.Email {
	return &user.Email{UserID: userID, Email: addr, LowerEmail: strings.ToLower(addr), Activated: true}
}

// isCategory checks err's category and its client-facing message.
func isCategory(is *is.I, err, category error, msg string) {
	is.Helper()
	is.True(err != nil)               // expected an error
	is.True(errors.Is(err, category)) // wrong error category
	is.Equal(errs.Message(err), msg)  // client-facing message
}

func ids[T any](items []T, id func(T) int64) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}
