package sqlstore

import (
	"database/sql"
	"strings"
)

// userColumns are every column of userRow, in the order scanUserRows reads
// them, for SQLite's prepared account reads; the times are read as text
// (see issueListColumns). Every authenticated request reads its account,
// and a page its authors: bun's reflection looked each of the 35 columns of
// each row up by name.
var userColumns = []string{
	"u.id", "u.name", "u.lower_name", "u.kind", "u.full_name", "u.email", "u.passwd_hash", "u.passwd_version",
	"u.is_admin", "u.is_active", "u.prohibit_login", "u.must_change_password", "u.is_restricted",
	"u.visibility", "u.location", "u.website", "u.description", "u.language", "u.theme", "u.diff_view",
	"u.hide_email", "u.hide_activity", "u.allow_git_hook", "u.allow_import_local", "u.allow_create_org",
	"u.max_repo_creation", "u.num_stars", "u.num_followers", "u.num_following", "u.totp_secret", "u.avatar",
	"CAST(u.created AS TEXT)", "CAST(u.updated AS TEXT)", "CAST(u.last_login AS TEXT)",
}

// userSelectSQLite selects userColumns from users AS u.
var userSelectSQLite = "SELECT " + strings.Join(userColumns, ", ") + " FROM users AS u"

// scanUserRows reads the rows of a statement selecting userColumns with
// database/sql's Scan straight into the row's fields, and closes them.
func scanUserRows(rows *sql.Rows) (_ []userRow, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	var out []userRow
	var created, updated, lastLogin sql.RawBytes
	for rows.Next() {
		out = append(out, userRow{})
		r := &out[len(out)-1]
		if err := rows.Scan(&r.ID, &r.Name, &r.LowerName, &r.Kind, &r.FullName, &r.Email, &r.PasswdHash,
			&r.PasswdVersion, &r.IsAdmin, &r.IsActive, &r.ProhibitLogin, &r.MustChangePassword, &r.IsRestricted,
			&r.Visibility, &r.Location, &r.Website, &r.Description, &r.Language, &r.Theme, &r.DiffView,
			&r.HideEmail, &r.HideActivity, &r.AllowGitHook, &r.AllowImportLocal, &r.AllowCreateOrg,
			&r.MaxRepoCreation, &r.NumStars, &r.NumFollowers, &r.NumFollowing, &r.TOTPSecret, &r.Avatar,
			&created, &updated, &lastLogin); err != nil {
			return nil, err
		}
		if r.Created, err = parseDBTime(created); err != nil {
			return nil, err
		}
		if r.Updated, err = parseDBTime(updated); err != nil {
			return nil, err
		}
		if r.LastLogin, err = parseDBTime(lastLogin); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}
