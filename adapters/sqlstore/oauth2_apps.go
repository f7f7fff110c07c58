package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/ports"
)

var (
	_ ports.OAuth2AppStore   = (*OAuth2AppStore)(nil)
	_ ports.OAuth2GrantStore = (*OAuth2GrantStore)(nil)
)

// OAuth2AppStore is the SQL implementation of ports.OAuth2AppStore.
type OAuth2AppStore struct{ c conn }

// OAuth2GrantStore is the SQL implementation of ports.OAuth2GrantStore.
type OAuth2GrantStore struct{ c conn }

var (
	oauth2AppMapping = mapping{op: "oauth2 application", notFound: "OAuth2 application does not exist",
		conflict: "OAuth2 client id has been used already", missingRef: "user does not exist"}
	oauth2GrantMapping = mapping{op: "oauth2 grant", notFound: "OAuth2 grant does not exist",
		missingRef: "OAuth2 application does not exist"}
	oauth2CodeMapping = mapping{op: "oauth2 code", notFound: "authorization code does not exist",
		conflict: "authorization code has been used already", missingRef: "OAuth2 grant does not exist"}
)

type oauth2AppRow struct {
	bun.BaseModel `bun:"table:oauth2_applications,alias:oa"`

	ID                         int64     `bun:"id,pk,autoincrement"`
	UserID                     int64     `bun:"user_id"`
	Name                       string    `bun:"name"`
	ClientID                   string    `bun:"client_id"`
	SecretHash                 string    `bun:"secret_hash"`
	SecretSalt                 string    `bun:"secret_salt"`
	RedirectURIs               string    `bun:"redirect_uris"`
	Confidential               bool      `bun:"confidential"`
	SkipSecondaryAuthorization bool      `bun:"skip_secondary_authorization"`
	Created                    time.Time `bun:"created,nullzero"`
	Updated                    time.Time `bun:"updated,nullzero"`
}

// Redirect URIs hold no whitespace (oauth2.ValidateApplication), so a
// newline separates them in one column.
func toOAuth2AppRow(a *oauth2.Application) *oauth2AppRow {
	return &oauth2AppRow{ID: a.ID, UserID: a.UserID, Name: a.Name, ClientID: a.ClientID,
		SecretHash: a.SecretHash, SecretSalt: a.SecretSalt, RedirectURIs: strings.Join(a.RedirectURIs, "\n"),
		Confidential: a.Confidential, SkipSecondaryAuthorization: a.SkipSecondaryAuthorization,
		Created: dbTime(a.Created), Updated: dbTime(a.Updated)}
}

func (r *oauth2AppRow) toDomain() *oauth2.Application {
	uris := []string{}
	if r.RedirectURIs != "" {
		uris = strings.Split(r.RedirectURIs, "\n")
	}
	return &oauth2.Application{ID: r.ID, UserID: r.UserID, Name: r.Name, ClientID: r.ClientID,
		SecretHash: r.SecretHash, SecretSalt: r.SecretSalt, RedirectURIs: uris,
		Confidential: r.Confidential, SkipSecondaryAuthorization: r.SkipSecondaryAuthorization,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated)}
}

// Create inserts a and sets a.ID.
func (s *OAuth2AppStore) Create(ctx context.Context, a *oauth2.Application) error {
	row := toOAuth2AppRow(a)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return oauth2AppMapping.mapErr(err)
	}
	a.ID = row.ID
	return nil
}

// ListByUser returns one page of the user's applications ordered by id, and the total.
func (s *OAuth2AppStore) ListByUser(ctx context.Context, userID int64, opts ports.ListOptions) ([]*oauth2.Application, int64, error) {
	var rows []oauth2AppRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("oa.user_id = ?", userID).Order("oa.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, oauth2AppMapping.mapErr(err)
	}
	return domainAll(rows, (*oauth2AppRow).toDomain), total, nil
}

// GetByID finds one of the user's applications.
func (s *OAuth2AppStore) GetByID(ctx context.Context, userID, id int64) (*oauth2.Application, error) {
	row := new(oauth2AppRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("oa.id = ?", id).Where("oa.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, oauth2AppMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByClientID finds an application by its client id.
func (s *OAuth2AppStore) GetByClientID(ctx context.Context, clientID string) (*oauth2.Application, error) {
	row := new(oauth2AppRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("oa.client_id = ?", clientID).Scan(ctx)
	if err != nil {
		return nil, oauth2AppMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Update writes a's editable fields and secret.
func (s *OAuth2AppStore) Update(ctx context.Context, a *oauth2.Application) error {
	row := toOAuth2AppRow(a)
	res, err := s.c.w(ctx).NewUpdate().Model(row).
		Column("name", "redirect_uris", "confidential", "skip_secondary_authorization", "secret_hash", "secret_salt", "updated").
		Where("id = ?", a.ID).Where("user_id = ?", a.UserID).Exec(ctx)
	return oauth2AppMapping.affected(res, err)
}

// Delete removes one of the user's applications; its grants and codes go
// with it (ON DELETE CASCADE).
func (s *OAuth2AppStore) Delete(ctx context.Context, userID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*oauth2AppRow)(nil)).
		Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	return oauth2AppMapping.affected(res, err)
}

type oauth2GrantRow struct {
	bun.BaseModel `bun:"table:oauth2_grants,alias:og"`

	ID      int64     `bun:"id,pk,autoincrement"`
	UserID  int64     `bun:"user_id"`
	AppID   int64     `bun:"app_id"`
	Scope   string    `bun:"scope"`
	Nonce   string    `bun:"nonce"`
	Counter int64     `bun:"counter"`
	Created time.Time `bun:"created,nullzero"`
}

func (r *oauth2GrantRow) toDomain() *oauth2.Grant {
	return &oauth2.Grant{ID: r.ID, UserID: r.UserID, AppID: r.AppID, Scope: r.Scope, Nonce: r.Nonce,
		Counter: r.Counter, Created: domainTime(r.Created)}
}

// GetOrCreate upserts the user's grant to the application in one statement.
func (s *OAuth2GrantStore) GetOrCreate(ctx context.Context, g *oauth2.Grant) (*oauth2.Grant, error) {
	row := &oauth2GrantRow{UserID: g.UserID, AppID: g.AppID, Scope: g.Scope, Nonce: g.Nonce, Counter: 1,
		Created: dbTime(g.Created)}
	_, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").
		On("CONFLICT (user_id, app_id) DO UPDATE").
		Set("scope = EXCLUDED.scope").Set("nonce = EXCLUDED.nonce").
		Returning("*").Exec(ctx)
	if err != nil {
		return nil, oauth2GrantMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByID finds a grant.
func (s *OAuth2GrantStore) GetByID(ctx context.Context, id int64) (*oauth2.Grant, error) {
	row := new(oauth2GrantRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("og.id = ?", id).Scan(ctx); err != nil {
		return nil, oauth2GrantMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByUserApp finds the user's grant to the application.
func (s *OAuth2GrantStore) GetByUserApp(ctx context.Context, userID, appID int64) (*oauth2.Grant, error) {
	row := new(oauth2GrantRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("og.user_id = ?", userID).Where("og.app_id = ?", appID).Scan(ctx)
	if err != nil {
		return nil, oauth2GrantMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Advance moves the counter on only from the expected value, so two uses
// of one refresh token cannot both succeed.
func (s *OAuth2GrantStore) Advance(ctx context.Context, id, from int64) (bool, error) {
	res, err := s.c.w(ctx).NewUpdate().Model((*oauth2GrantRow)(nil)).
		Set("counter = counter + 1").Where("id = ?", id).Where("counter = ?", from).Exec(ctx)
	if err != nil {
		return false, oauth2GrantMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, oauth2GrantMapping.mapErr(err)
	}
	return n == 1, nil
}

// Delete removes a grant and its codes.
func (s *OAuth2GrantStore) Delete(ctx context.Context, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*oauth2GrantRow)(nil)).Where("id = ?", id).Exec(ctx)
	return oauth2GrantMapping.affected(res, err)
}

type oauth2CodeRow struct {
	bun.BaseModel `bun:"table:oauth2_codes,alias:oc"`

	ID                  int64     `bun:"id,pk,autoincrement"`
	GrantID             int64     `bun:"grant_id"`
	CodeHash            string    `bun:"code_hash"`
	RedirectURI         string    `bun:"redirect_uri"`
	CodeChallenge       string    `bun:"code_challenge"`
	CodeChallengeMethod string    `bun:"code_challenge_method"`
	ValidUntil          time.Time `bun:"valid_until"`
	Used                bool      `bun:"used"`
}

// CreateCode inserts an authorization code.
func (s *OAuth2GrantStore) CreateCode(ctx context.Context, c *oauth2.AuthCode) error {
	row := &oauth2CodeRow{GrantID: c.GrantID, CodeHash: c.CodeHash, RedirectURI: c.RedirectURI,
		CodeChallenge: c.CodeChallenge, CodeChallengeMethod: c.CodeChallengeMethod, ValidUntil: dbTime(c.ValidUntil)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return oauth2CodeMapping.mapErr(err)
	}
	c.ID = row.ID
	return nil
}

// TakeCode reads the code and marks it used; of two concurrent takers only
// the one whose update changed the row sees it unused.
func (s *OAuth2GrantStore) TakeCode(ctx context.Context, codeHash string) (*oauth2.AuthCode, error) {
	row := new(oauth2CodeRow)
	if err := s.c.w(ctx).NewSelect().Model(row).Where("oc.code_hash = ?", codeHash).Scan(ctx); err != nil {
		return nil, oauth2CodeMapping.mapErr(err)
	}
	if !row.Used {
		res, err := s.c.w(ctx).NewUpdate().Model((*oauth2CodeRow)(nil)).Set("used = ?", true).
			Where("id = ?", row.ID).Where("used = ?", false).Exec(ctx)
		if err != nil {
			return nil, oauth2CodeMapping.mapErr(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return nil, oauth2CodeMapping.mapErr(err)
		}
		row.Used = n == 0
	}
	return &oauth2.AuthCode{Used: row.Used, ID: row.ID, GrantID: row.GrantID, CodeHash: row.CodeHash, RedirectURI: row.RedirectURI,
		CodeChallenge: row.CodeChallenge, CodeChallengeMethod: row.CodeChallengeMethod,
		ValidUntil: domainTime(row.ValidUntil)}, nil
}

// DeleteExpiredCodes removes codes past their time.
func (s *OAuth2GrantStore) DeleteExpiredCodes(ctx context.Context, now time.Time) error {
	_, err := s.c.w(ctx).NewDelete().Model((*oauth2CodeRow)(nil)).Where("valid_until < ?", dbTime(now)).Exec(ctx)
	return oauth2CodeMapping.mapErr(err)
}
