package ports

import "context"

// Stores is the set of stores one unit of work uses.
type Stores struct {
	Users         UserStore
	Emails        EmailStore
	Tokens        AccessTokenStore
	Repos         RepoStore
	Collaborators CollaboratorStore
	DeployKeys    DeployKeyStore
	Topics        TopicStore
	Stars         StarStore
	Watches       WatchStore
	Transfers     TransferStore
	PublicKeys    PublicKeyStore
	GPGKeys       GPGKeyStore

	BranchProtections   BranchProtectionStore
	TagProtections      TagProtectionStore
	Releases            ReleaseStore
	ReleaseAssets       ReleaseAssetStore
	UploadRefs          UploadRefStore
	Packages            PackageStore
	Containers          ContainerStore
	PackageCleanupRules PackageCleanupRuleStore

	CommitStatuses CommitStatusStore

	Jobs           JobStore
	Mirrors        MirrorStore
	PushMirrors    PushMirrorStore
	Hooks          HookStore
	HookDeliveries HookDeliveryStore

	Orgs    OrgStore
	Blocks  BlockStore
	Follows FollowStore
	Badges  UserBadgeStore

	Activities    ActivityStore
	Notifications NotificationStore
	CronTasks     CronTaskStore

	Issues         IssueStore
	Labels         LabelStore
	Milestones     MilestoneStore
	Comments       CommentStore
	Reactions      ReactionStore
	Attachments    AttachmentStore
	TrackedTimes   TrackedTimeStore
	IssueRelations IssueRelationStore

	Pulls       PullStore
	PullReviews PullReviewStore

	ActionVariables ActionVariableStore
	ActionSecrets   ActionSecretStore

	OAuth2Apps         OAuth2AppStore
	OAuth2Grants       OAuth2GrantStore
	ActionRuns         ActionRunStore
	ActionRunnerTokens ActionRunnerTokenStore
	ActionRunners      ActionRunnerStore
	ActionTasks        ActionTaskStore
	ActionArtifacts    ActionArtifactStore

	WebSessions WebSessionStore

	ActorKeys        ActorKeyStore
	ActivityPubInbox ActivityPubInboxStore
}

// Transactor runs fn in one database transaction with stores bound to it, and
// returns the commit's error. fn must not do network I/O.
type Transactor interface {
	InTx(ctx context.Context, fn func(ctx context.Context, tx Stores) error) error
}
