package contract

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// deliveryHook makes an active push hook of repository repoID.
func (f *fixture) deliveryHook(repoID int64, url string) *hook.Hook {
	f.t.Helper()
	h := &hook.Hook{
		Scope: hook.Scope{RepoID: repoID}, Kind: hook.KindService, URL: url, HTTPMethod: "POST",
		ContentType: hook.ContentJSON, Events: []string{"push"}, Active: true, Created: at(1), Updated: at(1),
	}
	if err := f.Hooks.Create(f.ctx, h); err != nil {
		f.t.Fatalf("create hook %q: %v", url, err)
	}
	return h
}

// newDelivery is a queued delivery of hook h with every column set.
func newDelivery(h *hook.Hook, uuid string, minute int) *hook.Delivery {
	return &hook.Delivery{
		UUID: uuid, HookID: h.ID, RepoID: h.Scope.RepoID, Event: "push", EventType: "push",
		Payload: []byte(`{"ref":"refs/heads/main","n":` + uuid[:1] + `}`), Created: at(minute),
	}
}

func (f *fixture) delivery(d *hook.Delivery) *hook.Delivery {
	f.t.Helper()
	if err := f.HookDeliveries.Create(f.ctx, d); err != nil {
		f.t.Fatalf("create delivery %s: %v", d.UUID, err)
	}
	if d.ID == 0 {
		f.t.Fatalf("create delivery %s: id not set", d.UUID)
	}
	return d
}

// deliveryAttempt is a fully populated attempt at minute.
func deliveryAttempt(status int, success bool, minute int) hook.Attempt {
	return hook.Attempt{
		RequestURL: "https://example.com/hook", RequestMethod: "POST",
		RequestHeaders:  map[string]string{"Content-Type": "application/json", "X-Service-Event": "push"},
		ResponseStatus:  status,
		ResponseHeaders: map[string]string{"Content-Type": "text/plain"},
		ResponseBody:    "answer", Success: success, Delivered: at(minute),
	}
}

var hookDeliveryTests = map[string]func(t *testing.T, f *fixture){
	"DeleteDeliveredBeforeKeepsNewerAndUnattempted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		old := f.delivery(newDelivery(h, "5c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 1))
		recent := f.delivery(newDelivery(h, "6c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 1))
		queued := f.delivery(newDelivery(h, "7c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 1))
		is.NoErr(f.HookDeliveries.RecordAttempt(f.ctx, old.ID, deliveryAttempt(500, false, 5)))
		is.NoErr(f.HookDeliveries.RecordAttempt(f.ctx, recent.ID, deliveryAttempt(200, true, 20)))

		n, err := f.HookDeliveries.DeleteDeliveredBefore(f.ctx, at(10))
		is.NoErr(err)
		is.Equal(n, int64(1))
		_, err = f.HookDeliveries.Get(f.ctx, old.ID)
		is.True(errors.Is(err, errs.ErrNotFound)) // attempted before the cut-off
		_, err = f.HookDeliveries.Get(f.ctx, recent.ID)
		is.NoErr(err) // attempted after it
		_, err = f.HookDeliveries.Get(f.ctx, queued.ID)
		is.NoErr(err) // never attempted: still to be sent

		n, err = f.HookDeliveries.DeleteDeliveredBefore(f.ctx, at(10))
		is.NoErr(err)
		is.Equal(n, int64(0))
	},
	"CreateAndGetRoundTrip": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		d := f.delivery(newDelivery(h, "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3))
		got, err := f.HookDeliveries.Get(f.ctx, d.ID)
		is.NoErr(err)
		is.Equal(got.UUID, d.UUID)
		is.Equal(got.HookID, h.ID)
		is.Equal(got.RepoID, h.Scope.RepoID)
		is.Equal(got.Event, "push")
		is.Equal(got.EventType, "push")
		is.Equal(string(got.Payload), string(d.Payload))
		is.Equal(got.Attempts, 0)
		is.True(got.Created.Equal(at(3)))
		is.Equal(got.Last.ResponseStatus, 0) // never tried
		is.True(got.Last.Delivered.IsZero())
		is.True(got.Last.RequestHeaders == nil)
	},
	"CreateRefusesTakenUUIDAndMissingHook": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		f.delivery(newDelivery(h, "2b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3))
		err := f.HookDeliveries.Create(f.ctx, newDelivery(h, "2b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 4))
		is.True(errors.Is(err, errs.ErrConflict)) // one UUID names one delivery
		gone := newDelivery(h, "3b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 4)
		gone.HookID = h.ID + 1000
		err = f.HookDeliveries.Create(f.ctx, gone)
		is.True(errors.Is(err, errs.ErrNotFound)) // the hook must exist
	},
	"GetMissing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		_, err := f.HookDeliveries.Get(f.ctx, 4242)
		is.True(errors.Is(err, errs.ErrNotFound))
		err = f.HookDeliveries.RecordAttempt(f.ctx, 4242, deliveryAttempt(200, true, 5))
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"RecordAttemptCountsAndKeepsTheLast": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		d := f.delivery(newDelivery(h, "4b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3))
		is.NoErr(f.HookDeliveries.RecordAttempt(f.ctx, d.ID, deliveryAttempt(500, false, 5)))
		second := deliveryAttempt(200, true, 7)
		second.RequestHeaders["X-Service-Delivery"] = d.UUID
		is.NoErr(f.HookDeliveries.RecordAttempt(f.ctx, d.ID, second))
		got, err := f.HookDeliveries.Get(f.ctx, d.ID)
		is.NoErr(err)
		is.Equal(got.Attempts, 2)
		is.Equal(got.Last.ResponseStatus, 200)
		is.True(got.Last.Success)
		is.True(got.Last.Delivered.Equal(at(7)))
		is.Equal(got.Last.RequestURL, "https://example.com/hook")
		is.Equal(got.Last.RequestMethod, "POST")
		is.Equal(got.Last.RequestHeaders, second.RequestHeaders)
		is.Equal(got.Last.ResponseHeaders, second.ResponseHeaders)
		is.Equal(got.Last.ResponseBody, "answer")
		is.Equal(string(got.Payload), string(d.Payload)) // the payload is never rewritten

		// A failed try without an answer clears what the last one had.
		is.NoErr(f.HookDeliveries.RecordAttempt(f.ctx, d.ID, hook.Attempt{ResponseBody: "dial refused", Delivered: at(9)}))
		got, err = f.HookDeliveries.Get(f.ctx, d.ID)
		is.NoErr(err)
		is.Equal(got.Attempts, 3)
		is.Equal(got.Last.ResponseStatus, 0)
		is.True(!got.Last.Success)
		is.True(got.Last.ResponseHeaders == nil)
		is.Equal(got.Last.ResponseBody, "dial refused")
	},
	"ListByHookNewestFirstPaged": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		h, other := f.deliveryHook(r.ID, "https://example.com/a"), f.deliveryHook(r.ID, "https://example.com/b")
		a := f.delivery(newDelivery(h, "5a9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 1))
		b := f.delivery(newDelivery(h, "5b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 2))
		c := f.delivery(newDelivery(h, "5c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3))
		f.delivery(newDelivery(other, "5d9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 4))
		list, total, err := f.HookDeliveries.ListByHook(f.ctx, h.ID, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(ids(list, func(d *hook.Delivery) int64 { return d.ID }), []int64{c.ID, b.ID})
		list, _, err = f.HookDeliveries.ListByHook(f.ctx, h.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, func(d *hook.Delivery) int64 { return d.ID }), []int64{a.ID})
		list, total, err = f.HookDeliveries.ListByHook(f.ctx, h.ID+1000, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.Equal(len(list), 0)
	},
	"DeletedWithTheirHook": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		d := f.delivery(newDelivery(h, "6b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3))
		is.NoErr(f.Hooks.Delete(f.ctx, h.Scope, h.ID))
		_, err := f.HookDeliveries.Get(f.ctx, d.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"CreatedOnlyWhenTheTransactionCommits": func(t *testing.T, f *fixture) {
		is := is.New(t)
		h := f.deliveryHook(f.repo(f.user("owner"), "repo").ID, "https://example.com/a")
		var id int64
		boom := errors.New("boom")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			d := newDelivery(h, "7b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 3)
			if err := tx.HookDeliveries.Create(ctx, d); err != nil {
				return err
			}
			id = d.ID
			return boom
		})
		is.True(errors.Is(err, boom))
		_, err = f.HookDeliveries.Get(f.ctx, id)
		is.True(errors.Is(err, errs.ErrNotFound)) // rolled back with the event
	},
}
