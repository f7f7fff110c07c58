package hooks

import (
	"fmt"
	"strings"
)

// The message formats of the chat kinds, as Gitea's slack.go, discord.go
// and dingtalk.go write them for push, create, delete, repository and fork
// events: a line naming the repository and ref (or the fork), and for
// pushes one line per commit.

// slackPayload is Slack's incoming-webhook message.
type slackPayload struct {
	Channel     string            `json:"channel"`
	Text        string            `json:"text"`
	Username    string            `json:"username"`
	IconURL     string            `json:"icon_url"`
	UnfurlLinks int               `json:"unfurl_links"`
	LinkNames   int               `json:"link_names"`
	Attachments []slackAttachment `json:"attachments"`
}

type slackAttachment struct {
	Fallback  string `json:"fallback"`
	Color     string `json:"color"`
	Title     string `json:"title"`
	TitleLink string `json:"title_link"`
	Text      string `json:"text"`
}

// slackEscape escapes Slack's control characters.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// slackLink is Slack's <url|text> link.
func slackLink(url, text string) string { return "<" + url + "|" + slackEscape(text) + ">" }

func slackMessage(p *eventPayload) slackPayload {
	if p.issue != nil {
		return slackIssueMessage(p)
	}
	repo := slackLink(p.repoURL, p.repoName)
	ref := slackLink(refURL(p), p.refName)
	switch n := p.native.(type) {
	case *pushPayload:
		desc := commitsDesc(n.TotalCommits)
		if n.CompareURL != "" {
			desc = slackLink(n.CompareURL, desc)
		}
		lines := make([]string, 0, len(n.Commits))
		for _, c := range n.Commits {
			lines = append(lines, fmt.Sprintf("%s: %s - %s", slackLink(c.URL, shortID(c.ID)),
				slackEscape(firstLine(c.Message)), slackEscape(c.Author.Name)))
		}
		return slackPayload{
			Text: fmt.Sprintf("[%s:%s] %s pushed by %s", repo, ref, desc, p.senderName),
			Attachments: []slackAttachment{{Color: "good", Title: p.repoURL, TitleLink: p.repoURL,
				Text: strings.Join(lines, "\n")}},
		}
	case *createPayload:
		return slackPayload{Text: fmt.Sprintf("[%s:%s] %s created by %s", repo, ref, n.RefType, p.senderName)}
	case *deletePayload:
		// The ref is gone, so there is no link to it; its name is still
		// user text, which must not open a link of its own.
		return slackPayload{Text: fmt.Sprintf("[%s:%s] %s deleted by %s", repo, slackEscape(p.refName), n.RefType, p.senderName)}
	case *repositoryPayload:
		return slackPayload{Text: fmt.Sprintf("[%s] Repository %s by %s", repo, n.Action, p.senderName)}
	case *forkPayload:
		return slackPayload{Text: fmt.Sprintf("%s is forked to %s", repo, slackLink(p.forkURL, p.forkName))}
	}
	return slackPayload{Text: fmt.Sprintf("[%s] %s", repo, p.event)}
}

// discordPayload is Discord's webhook message.
type discordPayload struct {
	Wait      bool           `json:"wait"`
	Content   string         `json:"content"`
	Username  string         `json:"username"`
	AvatarURL string         `json:"avatar_url"`
	TTS       bool           `json:"tts"`
	Embeds    []discordEmbed `json:"embeds"`
}

type discordEmbed struct {
	Title       string             `json:"title"`
	Description string             `json:"description"`
	URL         string             `json:"url"`
	Color       int                `json:"color"`
	Author      discordEmbedAuthor `json:"author"`
}

type discordEmbedAuthor struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	IconURL string `json:"icon_url"`
}

// Gitea's embed colours.
const (
	discordGreen = 0x1ac600
	discordRed   = 0xff3232
)

func discordMessage(p *eventPayload) discordPayload {
	if p.issue != nil {
		return discordIssueMessage(p)
	}
	embed := discordEmbed{Author: discordEmbedAuthor{Name: p.senderName, URL: p.senderURL}}
	switch n := p.native.(type) {
	case *pushPayload:
		lines := make([]string, 0, len(n.Commits))
		for _, c := range n.Commits {
			lines = append(lines, fmt.Sprintf("[%s](%s) %s - %s", shortID(c.ID), c.URL, firstLine(c.Message), c.Author.Name))
		}
		embed.Title = fmt.Sprintf("[%s:%s] %s", p.repoName, p.refName, commitsDesc(n.TotalCommits))
		embed.Description, embed.URL, embed.Color = strings.Join(lines, "\n"), n.CompareURL, discordGreen
	case *createPayload:
		embed.Title = fmt.Sprintf("[%s] %s %s created", p.repoName, n.RefType, p.refName)
		embed.URL, embed.Color = refURL(p), discordGreen
	case *deletePayload:
		embed.Title = fmt.Sprintf("[%s] %s %s deleted", p.repoName, n.RefType, p.refName)
		embed.URL, embed.Color = refURL(p), discordRed
	case *repositoryPayload:
		embed.Title = fmt.Sprintf("[%s] Repository %s", p.repoName, n.Action)
		embed.URL, embed.Color = p.repoURL, discordGreen
		if n.Action == repoActionDeleted {
			embed.Color = discordRed
		}
	case *forkPayload:
		embed.Title = fmt.Sprintf("%s is forked to %s", p.repoName, p.forkName)
		embed.URL, embed.Color = p.forkURL, discordGreen
	}
	return discordPayload{Embeds: []discordEmbed{embed}}
}

// dingtalkPayload is DingTalk's robot message, an action card.
type dingtalkPayload struct {
	MsgType    string             `json:"msgtype"`
	ActionCard dingtalkActionCard `json:"actionCard"`
}

type dingtalkActionCard struct {
	Text           string `json:"text"`
	Title          string `json:"title"`
	HideAvatar     string `json:"hideAvatar"`
	BtnOrientation string `json:"btnOrientation"`
	SingleTitle    string `json:"singleTitle"`
	SingleURL      string `json:"singleURL"`
}

func dingtalkMessage(p *eventPayload) dingtalkPayload {
	card := func(title, text, linkTitle, link string) dingtalkPayload {
		return dingtalkPayload{MsgType: "actionCard", ActionCard: dingtalkActionCard{
			Text: strings.TrimSpace(text), Title: strings.TrimSpace(title), HideAvatar: "0",
			SingleTitle: linkTitle, SingleURL: link}}
	}
	if p.issue != nil {
		return card(dingtalkIssueCard(p))
	}
	switch n := p.native.(type) {
	case *pushPayload:
		lines := make([]string, 0, len(n.Commits))
		for _, c := range n.Commits {
			lines = append(lines, fmt.Sprintf("[%s](%s) %s - %s", shortID(c.ID), c.URL,
				strings.TrimRight(c.Message, "\r\n"), c.Author.Name))
		}
		link := "view commits"
		if n.TotalCommits == 1 {
			link = "view commit"
		}
		title := fmt.Sprintf("[%s:%s] %s", p.repoName, p.refName, commitsDesc(n.TotalCommits))
		return card(title, title+"\r\n"+strings.Join(lines, "\r\n"), link, n.CompareURL)
	case *createPayload:
		title := fmt.Sprintf("[%s] %s %s created", p.repoName, n.RefType, p.refName)
		return card(title, title, "view ref "+p.refName, refURL(p))
	case *deletePayload:
		title := fmt.Sprintf("[%s] %s %s deleted", p.repoName, n.RefType, p.refName)
		return card(title, title, "view ref "+p.refName, refURL(p))
	case *repositoryPayload:
		title := fmt.Sprintf("[%s] Repository %s", p.repoName, n.Action)
		return card(title, title, "view repository", p.repoURL)
	case *forkPayload:
		title := fmt.Sprintf("%s is forked to %s", p.repoName, p.forkName)
		return card(title, title, "view forked repo "+p.forkName, p.forkURL)
	}
	return card(p.event, p.event, "view repository", p.repoURL)
}

// commitsDesc is "1 new commit" or "n new commits".
func commitsDesc(n int) string {
	if n == 1 {
		return "1 new commit"
	}
	return fmt.Sprintf("%d new commits", n)
}

// refURL is the web address of the event's branch or tag.
func refURL(p *eventPayload) string {
	return p.repoURL + "/src/" + p.refType + "/" + escapeSegments(p.refName)
}

func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}

func firstLine(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return line
}
