package user_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/user"
)

func TestCanBlock(t *testing.T) {
	// 1 blocks 2 as itself; org 10 (owned by 1) blocks 2; 9 is a site admin.
	self := user.BlockFacts{DoerID: 1, BlockerID: 1, BlockeeID: 2}
	org := user.BlockFacts{DoerID: 1, BlockerID: 10, BlockerIsOrg: true, DoerOwnsBlocker: true, BlockeeID: 2}
	with := func(f user.BlockFacts, edit func(*user.BlockFacts)) user.BlockFacts { edit(&f); return f }
	cases := []struct {
		name string
		f    user.BlockFacts
		want error
	}{
		{"user blocks another", self, nil},
		{"user blocks itself", with(self, func(f *user.BlockFacts) { f.BlockeeID = 1 }), user.ErrCannotBlock},
		{"user blocks an organisation", with(self, func(f *user.BlockFacts) { f.BlockeeIsOrg = true }), user.ErrBlockOrganization},
		{"user blocks twice", with(self, func(f *user.BlockFacts) { f.Blocked = true }), user.ErrCannotBlock},
		{"someone else for a user", with(self, func(f *user.BlockFacts) { f.DoerID = 3 }), user.ErrCannotBlock},
		{"site admin for a user", with(self, func(f *user.BlockFacts) { f.DoerID, f.DoerIsAdmin = 9, true }), nil},
		{"org owner blocks outsider", org, nil},
		{"org blocks its member", with(org, func(f *user.BlockFacts) { f.BlockeeIsMember = true }), user.ErrCannotBlock},
		{"org owner blocks itself", with(org, func(f *user.BlockFacts) { f.BlockeeID = 1 }), user.ErrCannotBlock},
		{"org non-owner", with(org, func(f *user.BlockFacts) { f.DoerOwnsBlocker = false }), user.ErrCannotBlock},
		{"site admin for an org", with(org, func(f *user.BlockFacts) {
			f.DoerID, f.DoerIsAdmin, f.DoerOwnsBlocker = 9, true, false
		}), nil},
		{"org blocks an org", with(org, func(f *user.BlockFacts) { f.BlockeeIsOrg = true }), user.ErrBlockOrganization},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.CanBlock(c.f), c.want)
		})
	}
}

func TestCanUnblock(t *testing.T) {
	self := user.BlockFacts{DoerID: 1, BlockerID: 1, BlockeeID: 2, Blocked: true}
	org := user.BlockFacts{DoerID: 1, BlockerID: 10, BlockerIsOrg: true, DoerOwnsBlocker: true, BlockeeID: 2, Blocked: true}
	with := func(f user.BlockFacts, edit func(*user.BlockFacts)) user.BlockFacts { edit(&f); return f }
	cases := []struct {
		name string
		f    user.BlockFacts
		want error
	}{
		{"user unblocks", self, nil},
		{"not blocked", with(self, func(f *user.BlockFacts) { f.Blocked = false }), user.ErrCannotUnblock},
		{"blockee unblocks itself", with(self, func(f *user.BlockFacts) { f.DoerID = 2 }), user.ErrCannotUnblock},
		{"an organisation", with(self, func(f *user.BlockFacts) { f.BlockeeIsOrg = true }), user.ErrBlockOrganization},
		{"someone else", with(self, func(f *user.BlockFacts) { f.DoerID = 3 }), user.ErrCannotUnblock},
		{"site admin", with(self, func(f *user.BlockFacts) { f.DoerID, f.DoerIsAdmin = 9, true }), nil},
		{"org owner", org, nil},
		{"org non-owner", with(org, func(f *user.BlockFacts) { f.DoerOwnsBlocker = false }), user.ErrCannotUnblock},
		// A member may be unblocked: the block predates the membership.
		{"org member", with(org, func(f *user.BlockFacts) { f.BlockeeIsMember = true }), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.CanUnblock(c.f), c.want)
		})
	}
}

func TestHeldBack(t *testing.T) {
	cases := []struct {
		name    string
		blockee *user.User
		blocked bool
		want    bool
	}{
		{"blocked user", &user.User{ID: 2}, true, true},
		{"not blocked", &user.User{ID: 2}, false, false},
		{"blocked site admin", &user.User{ID: 2, IsAdmin: true}, true, false},
		{"no user", nil, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.HeldBack(c.blockee, c.blocked), c.want)
		})
	}
}
