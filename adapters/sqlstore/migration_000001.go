package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000001, frozen: these types describe the tables as this
// migration creates them, independent of the query models that evolve.

type m000001User struct {
	bun.BaseModel `bun:"table:users"`

	ID                 int64     `bun:"id,pk,autoincrement"`
	Name               string    `bun:"name,notnull"`
	LowerName          string    `bun:"lower_name,notnull,unique"`
	Kind               int       `bun:"kind,notnull,default:0"`
	FullName           string    `bun:"full_name,notnull,default:''"`
	Email              string    `bun:"email,notnull,default:''"`
	PasswdHash         string    `bun:"passwd_hash,notnull,default:''"`
	PasswdVersion      int64     `bun:"passwd_version,notnull,default:0"`
	IsAdmin            bool      `bun:"is_admin,notnull,default:false"`
	IsActive           bool      `bun:"is_active,notnull,default:false"`
	ProhibitLogin      bool      `bun:"prohibit_login,notnull,default:false"`
	MustChangePassword bool      `bun:"must_change_password,notnull,default:false"`
	IsRestricted       bool      `bun:"is_restricted,notnull,default:false"`
	Visibility         string    `bun:"visibility,notnull,default:'public'"`
	Location           string    `bun:"location,notnull,default:''"`
	Website            string    `bun:"website,notnull,default:''"`
	Description        string    `bun:"description,notnull,default:''"`
	Language           string    `bun:"language,notnull,default:''"`
	Theme              string    `bun:"theme,notnull,default:''"`
	DiffView           string    `bun:"diff_view,notnull,default:''"`
	HideEmail          bool      `bun:"hide_email,notnull,default:false"`
	HideActivity       bool      `bun:"hide_activity,notnull,default:false"`
	AllowGitHook       bool      `bun:"allow_git_hook,notnull,default:false"`
	AllowImportLocal   bool      `bun:"allow_import_local,notnull,default:false"`
	AllowCreateOrg     bool      `bun:"allow_create_org,notnull,default:true"`
	MaxRepoCreation    int       `bun:"max_repo_creation,notnull,default:-1"`
	TOTPSecret         string    `bun:"totp_secret,notnull,default:''"`
	Created            time.Time `bun:"created,nullzero"`
	Updated            time.Time `bun:"updated,nullzero"`
	LastLogin          time.Time `bun:"last_login,nullzero"`
}

type m000001Email struct {
	bun.BaseModel `bun:"table:emails"`

	ID         int64  `bun:"id,pk,autoincrement"`
	UserID     int64  `bun:"user_id,notnull"`
	Email      string `bun:"email,notnull"`
	LowerEmail string `bun:"lower_email,notnull,unique"`
	Activated  bool   `bun:"activated,notnull,default:false"`
	IsPrimary  bool   `bun:"is_primary,notnull,default:false"`
}

type m000001Token struct {
	bun.BaseModel `bun:"table:access_tokens"`

	ID        int64     `bun:"id,pk,autoincrement"`
	UserID    int64     `bun:"user_id,notnull,unique:access_tokens_user_name"`
	Name      string    `bun:"name,notnull,unique:access_tokens_user_name"`
	TokenHash string    `bun:"token_hash,notnull,unique"`
	TokenSalt string    `bun:"token_salt,notnull"`
	LastEight string    `bun:"last_eight,notnull"`
	Scopes    string    `bun:"scopes,notnull,default:''"`
	Created   time.Time `bun:"created,nullzero"`
	LastUsed  time.Time `bun:"last_used,nullzero"`
}

type m000001Redirect struct {
	bun.BaseModel `bun:"table:user_redirects"`

	LowerName string `bun:"lower_name,pk"`
	UserID    int64  `bun:"user_id,notnull"`
}

const cascadeToUsers = `("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000001(ctx context.Context, tx bun.Tx) error {
	// IF NOT EXISTS everywhere: a crash between this commit and bun recording
	// the migration makes the next run repeat it, which must then succeed.
	tables := []struct {
		model any
		fk    bool
	}{
		{(*m000001User)(nil), false},
		{(*m000001Email)(nil), true},
		{(*m000001Token)(nil), true},
		{(*m000001Redirect)(nil), true},
	}
	for _, t := range tables {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		if t.fk {
			q = q.ForeignKey(cascadeToUsers)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	// user_id indexes keep the cascade on user deletion from scanning whole
	// tables; access_tokens is covered by its (user_id, name) constraint.
	indexes := []struct{ table, name, column string }{
		{"emails", "idx_emails_user_id", "user_id"},
		{"access_tokens", "idx_access_tokens_last_eight", "last_eight"},
		{"user_redirects", "idx_user_redirects_user_id", "user_id"},
	}
	for _, ix := range indexes {
		if _, err := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.column).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000001(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000001Redirect)(nil), (*m000001Token)(nil), (*m000001Email)(nil), (*m000001User)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
