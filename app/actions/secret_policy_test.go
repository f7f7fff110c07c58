package actions_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/app/actions"
	domain "github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// fakeBox seals by keeping the plain text and its label aside and handing
// out an opaque ticket, so a test sees both what the store got and whether
// a value opens under a label.
type fakeBox struct {
	sealed map[string][2]string // ticket -> label, plain
}

func (b *fakeBox) Seal(plain []byte, label string) (string, error) {
	ticket := "v1:" + strconv.Itoa(len(b.sealed))
	b.sealed[ticket] = [2]string{label, string(plain)}
	return ticket, nil
}

func (b *fakeBox) Open(sealed, label string) ([]byte, error) {
	v, ok := b.sealed[sealed]
	if !ok || v[0] != label {
		return nil, errors.New("cannot open")
	}
	return []byte(v[1]), nil
}

// fakeSecrets keeps secrets in a slice; raceOnCreate makes the next Create
// find that another request inserted the same name first.
type fakeSecrets struct {
	rows         []*domain.Secret
	raceOnCreate bool
}

func (f *fakeSecrets) find(owner domain.SecretOwner, name string) *domain.Secret {
	for _, s := range f.rows {
		if s.SecretOwner == owner && s.Name == name {
			return s
		}
	}
	return nil
}

func (f *fakeSecrets) Create(_ context.Context, s *domain.Secret) error {
	if f.raceOnCreate {
		f.raceOnCreate = false
		f.rows = append(f.rows, &domain.Secret{ID: 99, SecretOwner: s.SecretOwner, Name: s.Name, Data: "racer", Created: s.Created})
		return errs.Conflict("a secret with this name already exists")
	}
	if f.find(s.SecretOwner, s.Name) != nil {
		return errs.Conflict("a secret with this name already exists")
	}
	c := *s
	c.ID = int64(len(f.rows) + 1)
	s.ID = c.ID
	f.rows = append(f.rows, &c)
	return nil
}

func (f *fakeSecrets) Get(_ context.Context, owner domain.SecretOwner, name string) (*domain.Secret, error) {
	if s := f.find(owner, name); s != nil {
		c := *s
		return &c, nil
	}
	return nil, errs.NotFound("secret not found")
}

func (f *fakeSecrets) Update(_ context.Context, s *domain.Secret) error {
	for _, r := range f.rows {
		if r.ID == s.ID && r.SecretOwner == s.SecretOwner {
			r.Data, r.Description = s.Data, s.Description
			return nil
		}
	}
	return errs.NotFound("secret not found")
}

func (f *fakeSecrets) List(_ context.Context, owner domain.SecretOwner, _ ports.ListOptions) ([]*domain.Secret, int64, error) {
	var out []*domain.Secret
	for _, s := range f.rows {
		if s.SecretOwner == owner {
			c := *s
			out = append(out, &c)
		}
	}
	return out, int64(len(out)), nil
}

func (f *fakeSecrets) Delete(_ context.Context, owner domain.SecretOwner, name string) error {
	for i, s := range f.rows {
		if s.SecretOwner == owner && s.Name == name {
			f.rows = append(f.rows[:i], f.rows[i+1:]...)
			return nil
		}
	}
	return errs.NotFound("secret not found")
}

// fakeTx runs fn on the same stores: the fakes need no rollback here.
type fakeTx struct{ stores ports.Stores }

func (t fakeTx) InTx(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	return fn(ctx, t.stores)
}

type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func newSecrets() (actions.Secrets, *fakeSecrets, *fakeBox) {
	store, box := &fakeSecrets{}, &fakeBox{sealed: map[string][2]string{}}
	stores := ports.Stores{ActionSecrets: store}
	return actions.NewService(stores, fakeTx{stores}, box, fixedClock{}, nil, nil, nil, actions.Kit{}).Secrets(), store, box
}

func TestSecretValuesAreSealedForTheirOwnerAndName(t *testing.T) {
	ctx := t.Context()
	s, store, _ := newSecrets()
	repo := domain.RepoSecrets(7)
	created, err := s.Put(ctx, repo, "token", "plain-value", "d")
	if err != nil || !created {
		t.Fatalf("Put = %v, %v; want created", created, err)
	}
	row := store.find(repo, "TOKEN")
	if row == nil || strings.Contains(row.Data, "plain-value") || row.Description != "d" || !row.Created.Equal(fixedClock{}.Now()) {
		t.Fatalf("stored %+v; want the value sealed, the name upper-cased", row)
	}
	if got, err := s.Reveal(ctx, repo, "Token"); err != nil || got != "plain-value" {
		t.Fatalf("Reveal = %q, %v", got, err)
	}

	// A sealed value copied to another owner's secret, or another name,
	// does not open there.
	store.rows = append(store.rows,
		&domain.Secret{ID: 50, SecretOwner: domain.AccountSecrets(7), Name: "TOKEN", Data: row.Data},
		&domain.Secret{ID: 51, SecretOwner: repo, Name: "OTHER", Data: row.Data})
	for _, c := range []struct {
		owner domain.SecretOwner
		name  string
	}{{domain.AccountSecrets(7), "TOKEN"}, {repo, "OTHER"}} {
		if _, err := s.Reveal(ctx, c.owner, c.name); err == nil {
			t.Errorf("a copied value opened for %+v %s", c.owner, c.name)
		}
	}

	// Lists never carry values.
	list, total, err := s.List(ctx, repo, ports.ListOptions{Page: 1, Limit: 10})
	if err != nil || total != 2 {
		t.Fatalf("List = %d, %v", total, err)
	}
	for _, sec := range list {
		if sec.Data != "" {
			t.Errorf("List gave %s's value", sec.Name)
		}
	}
}

func TestSecretPutUpdatesAndReplacesDescription(t *testing.T) {
	ctx := t.Context()
	s, store, _ := newSecrets()
	owner := domain.AccountSecrets(3)
	if _, err := s.Put(ctx, owner, "A", "one", "first"); err != nil {
		t.Fatal(err)
	}
	created, err := s.Put(ctx, owner, "a", "two", "")
	if err != nil || created {
		t.Fatalf("second Put = %v, %v; want an update", created, err)
	}
	if got, _ := s.Reveal(ctx, owner, "A"); got != "two" {
		t.Errorf("value after update = %q", got)
	}
	if d := store.find(owner, "A").Description; d != "" {
		t.Errorf("description after update = %q; an absent one is empty, as Gitea", d)
	}
}

func TestSecretPutLosingTheRaceToCreateUpdates(t *testing.T) {
	ctx := t.Context()
	s, store, _ := newSecrets()
	store.raceOnCreate = true
	repo := domain.RepoSecrets(1)
	created, err := s.Put(ctx, repo, "X", "mine", "")
	if err != nil || created {
		t.Fatalf("Put = %v, %v; want the racer's secret updated", created, err)
	}
	if got, err := s.Reveal(ctx, repo, "X"); err != nil || got != "mine" {
		t.Fatalf("Reveal = %q, %v", got, err)
	}
}

func TestSecretRefusals(t *testing.T) {
	ctx := t.Context()
	s, store, _ := newSecrets()
	repo := domain.RepoSecrets(1)
	for _, c := range []struct{ name, data, msg string }{
		{"GITHUB_TOKEN", "x", "secretname: invalid secret name"},
		{"9LIVES", "x", "secretname: invalid secret name"},
		{"OK", "", "Data: Required"},
	} {
		if _, err := s.Put(ctx, repo, c.name, c.data, ""); !errors.Is(err, errs.ErrInvalid) || errs.Message(err) != c.msg {
			t.Errorf("Put(%q, %q) = %v; want 422 %q", c.name, c.data, err, c.msg)
		}
	}
	if _, err := s.Put(ctx, domain.SecretOwner{}, "OK", "x", ""); err == nil {
		t.Error("a secret without an owner was stored")
	}
	if len(store.rows) != 0 {
		t.Errorf("refused puts stored %d rows", len(store.rows))
	}
	if err := s.Delete(ctx, repo, "not-a-name"); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("Delete of an impossible name = %v; want not found", err)
	}
}
