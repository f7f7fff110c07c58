package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000039, frozen once released: OAuth2 applications, the
// grants users give them, and the grants' authorization codes. Everything
// dies with its user, and grants and codes with their application.
type m000039App struct {
	bun.BaseModel `bun:"table:oauth2_applications"`

	ID                         int64     `bun:"id,pk,autoincrement"`
	UserID                     int64     `bun:"user_id,notnull"`
	Name                       string    `bun:"name,type:varchar(255),notnull"`
	ClientID                   string    `bun:"client_id,type:varchar(64),notnull,unique"`
	SecretHash                 string    `bun:"secret_hash,type:varchar(64),notnull,default:''"`
	SecretSalt                 string    `bun:"secret_salt,type:varchar(64),notnull,default:''"`
	RedirectURIs               string    `bun:"redirect_uris,type:text,notnull,default:''"`
	Confidential               bool      `bun:"confidential,notnull,default:false"`
	SkipSecondaryAuthorization bool      `bun:"skip_secondary_authorization,notnull,default:false"`
	Created                    time.Time `bun:"created,nullzero"`
	Updated                    time.Time `bun:"updated,nullzero"`
}

type m000039Grant struct {
	bun.BaseModel `bun:"table:oauth2_grants"`

	ID      int64     `bun:"id,pk,autoincrement"`
	UserID  int64     `bun:"user_id,notnull"`
	AppID   int64     `bun:"app_id,notnull"`
	Scope   string    `bun:"scope,type:text,notnull,default:''"`
	Nonce   string    `bun:"nonce,type:text,notnull,default:''"`
	Counter int64     `bun:"counter,notnull,default:1"`
	Created time.Time `bun:"created,nullzero"`
}

type m000039Code struct {
	bun.BaseModel `bun:"table:oauth2_codes"`

	ID                  int64     `bun:"id,pk,autoincrement"`
	GrantID             int64     `bun:"grant_id,notnull"`
	CodeHash            string    `bun:"code_hash,type:varchar(64),notnull,unique"`
	RedirectURI         string    `bun:"redirect_uri,type:text,notnull"`
	CodeChallenge       string    `bun:"code_challenge,type:varchar(255),notnull,default:''"`
	CodeChallengeMethod string    `bun:"code_challenge_method,type:varchar(16),notnull,default:''"`
	ValidUntil          time.Time `bun:"valid_until,notnull"`
	Used                bool      `bun:"used,notnull,default:false"`
}

func up000039(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000039App)(nil)).IfNotExists().
		ForeignKey(`("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000039Grant)(nil)).IfNotExists().
		ForeignKey(`("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).
		ForeignKey(`("app_id") REFERENCES "oauth2_applications" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000039Code)(nil)).IfNotExists().
		ForeignKey(`("grant_id") REFERENCES "oauth2_grants" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	// A user's applications are listed by owner; a user grants an
	// application once; the cascades look grants up by application and
	// codes by grant.
	for _, ix := range []struct {
		table, name string
		unique      bool
		cols        []string
	}{
		{"oauth2_applications", "oauth2_applications_user", false, []string{"user_id"}},
		{"oauth2_grants", "oauth2_grants_pair", true, []string{"user_id", "app_id"}},
		{"oauth2_grants", "oauth2_grants_app", false, []string{"app_id"}},
		{"oauth2_codes", "oauth2_codes_grant", false, []string{"grant_id"}},
	} {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.cols...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000039(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000039Code)(nil), (*m000039Grant)(nil), (*m000039App)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
