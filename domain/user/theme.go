package user

// DefaultTheme is the theme a new account starts with and the site's
// default_theme: Gitea 1.27's [ui] DEFAULT_THEME, which its user creation
// copies onto the account ("u.Theme = setting.UI.DefaultTheme"). Language
// and diff view style start empty there, so they do here.
const DefaultTheme = "gitea-auto"
