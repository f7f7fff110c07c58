package site

// Metrics configure the /metrics page (Gitea's [metrics] ENABLED and
// TOKEN).
type Metrics struct {
	// Enabled serves /metrics; off, it answers 404 and nothing is counted.
	Enabled bool
	// Token, when set, must come as "Authorization: Bearer <token>".
	Token string
}
