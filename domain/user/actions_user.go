package user

// ActionsUserID and ActionsUserName name the pseudo-user a workflow run's
// token (GITEA_TOKEN) acts as, Gitea's "gitea-actions". It has no row: what
// it does is recorded under its id where no foreign key binds the column
// (a run's trigger, a push's pusher) and is shown by NewActionsUser.
const (
	ActionsUserID   int64 = -2
	ActionsUserName       = "gitea-actions"
)

// NewActionsUser is the pseudo-user a task token acts as, as Gitea shows
// it: an active public account whose address is kept private.
func NewActionsUser() *User {
	return &User{ID: ActionsUserID, Name: ActionsUserName, LowerName: ActionsUserName, FullName: "Gitea Actions",
		Email: "teabot@gitea.io", Kind: KindIndividual, IsActive: true, Visibility: VisibilityPublic, HideEmail: true}
}

// IsActionsUser reports whether u is the Actions pseudo-user.
func (u *User) IsActionsUser() bool { return u != nil && u.ID == ActionsUserID }
