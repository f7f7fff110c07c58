package hooks

import (
	"fmt"
	"strconv"
)

// The payloads of issue events, in the shapes of Gitea's modules/structs
// (IssuePayload, IssueCommentPayload, PullRequestPayload, ChangesPayload).
// The issue, comment, repository and account records come from
// ports.HookPayloads, so they are the API's own.

// Issue comment actions (Gitea's HookIssueCommentAction).
const (
	issueCommentCreated = "created"
	issueCommentEdited  = "edited"
	issueCommentDeleted = "deleted"
)

// changesFrom is Gitea's ChangesFromPayload: the value before an edit.
type changesFrom struct {
	From string `json:"from"`
}

// changesPayload is Gitea's ChangesPayload: what an edit changed.
type changesPayload struct {
	Title *changesFrom `json:"title,omitempty"`
	Body  *changesFrom `json:"body,omitempty"`
	Ref   *changesFrom `json:"ref,omitempty"`
}

// issuePayload is Gitea's IssuePayload.
type issuePayload struct {
	Action     string          `json:"action"`
	Index      int64           `json:"number"`
	Changes    *changesPayload `json:"changes,omitempty"`
	Issue      any             `json:"issue"`
	Repository any             `json:"repository"`
	Sender     any             `json:"sender"`
	CommitID   string          `json:"commit_id"`
}

// issueCommentPayload is Gitea's IssueCommentPayload; a pull request's
// comment shows the pull request too.
type issueCommentPayload struct {
	Action      string          `json:"action"`
	Issue       any             `json:"issue"`
	PullRequest any             `json:"pull_request,omitempty"`
	Comment     any             `json:"comment"`
	Changes     *changesPayload `json:"changes,omitempty"`
	Repository  any             `json:"repository"`
	Sender      any             `json:"sender"`
	IsPull      bool            `json:"is_pull"`
}

// pullRequestPayload is Gitea's PullRequestPayload: pull_request is the
// API's PullRequest (the issue record only when the pull request's own
// record is gone).
type pullRequestPayload struct {
	Action            string          `json:"action"`
	Index             int64           `json:"number"`
	Changes           *changesPayload `json:"changes,omitempty"`
	PullRequest       any             `json:"pull_request"`
	RequestedReviewer any             `json:"requested_reviewer"`
	Repository        any             `json:"repository"`
	Sender            any             `json:"sender"`
	CommitID          string          `json:"commit_id"`
	Review            any             `json:"review"`
}

// reviewPayload is Gitea's ReviewPayload: the review's hook event and body.
type reviewPayload struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// issueFacts are the few facts of an issue event the chat formats show.
type issueFacts struct {
	action string
	index  int64
	title  string
	isPull bool
	url    string
	// comment and commentURL are a comment event's body and address.
	comment, commentURL string
	// assignee is the account (un)assigned; milestone the issue's
	// milestone after the change.
	assignee, milestone string
	// review is a submitted review's verdict ("approved", "rejected",
	// "comment"); reviewBody its text.
	review, reviewBody string
}

// summary is the line Gitea's chat formats show for an issue event
// (getIssuesPayloadInfo, getIssueCommentPayloadInfo): what happened to
// which issue, without the repository and the sender.
func (f *issueFacts) summary() string {
	noun := "Issue"
	if f.isPull {
		noun = "Pull request"
	}
	title := "#" + strconv.FormatInt(f.index, 10) + " " + f.title
	if f.commentURL != "" {
		kind := "issue"
		if f.isPull {
			kind = "pull request"
		}
		switch f.action {
		case issueCommentEdited:
			return "Comment edited on " + kind + " " + title
		case issueCommentDeleted:
			return "Comment deleted on " + kind + " " + title
		}
		return "New comment on " + kind + " " + title
	}
	var what string
	switch f.action {
	case "opened":
		what = "opened"
	case "closed":
		what = "closed"
	case "reopened":
		what = "re-opened"
	case "edited":
		what = "edited"
	case "assigned":
		what = "assigned"
		if f.assignee != "" {
			what += " to " + f.assignee
		}
	case "unassigned":
		what = "unassigned"
	case "label_updated":
		what = "labels updated"
	case "label_cleared":
		what = "labels cleared"
	case "milestoned":
		what = "milestoned"
		if f.milestone != "" {
			what += " to " + f.milestone
		}
	case "demilestoned":
		what = "milestone cleared"
	case "review_requested":
		what = "review requested"
	case "review_request_removed":
		what = "review request removed"
	case "reviewed":
		what = "review " + f.review
	default:
		what = f.action
	}
	return noun + " " + what + ": " + title
}

// link is the address the chat formats point to.
func (f *issueFacts) link() string {
	if f.commentURL != "" {
		return f.commentURL
	}
	return f.url
}

// body is the text shown under the summary: the comment or the review's
// text, if any.
func (f *issueFacts) body() string {
	if f.comment == "" {
		return f.reviewBody
	}
	return f.comment
}

// The chat formats of issue events: one line naming the repository, what
// happened to which issue and who did it, and a comment's text below.

func slackIssueMessage(p *eventPayload) slackPayload {
	f := p.issue
	m := slackPayload{Text: fmt.Sprintf("[%s] %s by %s", slackLink(p.repoURL, p.repoName),
		slackLink(f.link(), f.summary()), slackEscape(p.senderName))}
	if f.body() != "" {
		m.Attachments = []slackAttachment{{Color: "good", Text: slackEscape(f.body())}}
	}
	return m
}

func discordIssueMessage(p *eventPayload) discordPayload {
	f := p.issue
	color := discordGreen
	if f.action == "closed" || f.action == issueCommentDeleted {
		color = discordRed
	}
	return discordPayload{Embeds: []discordEmbed{{Title: fmt.Sprintf("[%s] %s", p.repoName, f.summary()),
		Description: f.body(), URL: f.link(), Color: color,
		Author: discordEmbedAuthor{Name: p.senderName, URL: p.senderURL}}}}
}

func dingtalkIssueCard(p *eventPayload) (title, text, linkTitle, link string) {
	f := p.issue
	title = fmt.Sprintf("[%s] %s", p.repoName, f.summary())
	text = title
	if f.body() != "" {
		text += "\r\n\r\n" + f.body()
	}
	linkTitle = "view issue"
	if f.isPull {
		linkTitle = "view pull request"
	}
	return title, text, linkTitle, f.link()
}
