package outbound

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/ports"
)

var _ ports.MigrationSource = (*Guard)(nil)

// sourceClient is a Gitea API client for r that goes through the guard's
// client (dial-time checks, no redirects). The server version is not asked
// for: the calls used exist in every version that speaks the API. The
// client is bound to ctx, so cancelling the migration stops the request.
func (g *Guard) sourceClient(ctx context.Context, r ports.SourceRepo) (*gitea.Client, error) {
	opts := []gitea.ClientOption{gitea.SetHTTPClient(g.Client()), gitea.SetGiteaVersion(""), gitea.SetContext(ctx)}
	switch {
	case r.Token != "":
		opts = append(opts, gitea.SetToken(r.Token))
	case r.Username != "" || r.Password != "":
		opts = append(opts, gitea.SetBasicAuth(r.Username, r.Password))
	}
	c, err := gitea.NewClient(strings.TrimSuffix(r.BaseURL, "/"), opts...)
	if err != nil {
		return nil, errs.Invalid("migration failed: the source address is not a server's", "CloneAddr")
	}
	return c, nil
}

// sourceError names what went wrong reading the source, without the
// credentials (the SDK's errors carry the answer's status and message,
// never the request's headers).
func sourceError(what string, resp *gitea.Response, err error) error {
	if errors.Is(err, netpolicy.ErrRefused) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := "migration failed: reading the source's " + what
	if resp != nil {
		switch resp.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return errs.Invalid(msg+": the source refused the credentials (status "+strconv.Itoa(resp.StatusCode)+")", "CloneAddr")
		case http.StatusNotFound:
			return errs.Invalid(msg+": not found on the source", "CloneAddr")
		}
		return errs.Invalid(msg+": the source answered status "+strconv.Itoa(resp.StatusCode), "CloneAddr")
	}
	return errs.Invalid(msg+": the source did not answer as a Gitea API", "CloneAddr")
}

func sourcePage(page, limit int) gitea.ListOptions {
	return gitea.ListOptions{Page: page, PageSize: limit}
}

// Labels reads one page of the source repository's labels.
func (g *Guard) Labels(ctx context.Context, r ports.SourceRepo, page, limit int) ([]ports.SourceLabel, error) {
	c, err := g.sourceClient(ctx, r)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.ListRepoLabels(r.Owner, r.Name, gitea.ListLabelsOptions{ListOptions: sourcePage(page, limit)})
	if err != nil {
		return nil, sourceError("labels", resp, err)
	}
	out := make([]ports.SourceLabel, 0, len(list))
	for _, l := range list {
		out = append(out, ports.SourceLabel{Name: l.Name, Color: l.Color, Description: l.Description, Exclusive: l.Exclusive})
	}
	return out, nil
}

// Milestones reads one page of the source repository's milestones, open and closed.
func (g *Guard) Milestones(ctx context.Context, r ports.SourceRepo, page, limit int) ([]ports.SourceMilestone, error) {
	c, err := g.sourceClient(ctx, r)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.ListRepoMilestones(r.Owner, r.Name, gitea.ListMilestoneOption{ListOptions: sourcePage(page, limit), State: gitea.StateAll})
	if err != nil {
		return nil, sourceError("milestones", resp, err)
	}
	out := make([]ports.SourceMilestone, 0, len(list))
	for _, m := range list {
		sm := ports.SourceMilestone{Title: m.Title, Description: m.Description, Closed: m.State == gitea.StateClosed,
			Deadline: m.Deadline, ClosedAt: m.Closed, Created: m.Created, Updated: m.Created}
		if m.Updated != nil {
			sm.Updated = *m.Updated
		}
		out = append(out, sm)
	}
	return out, nil
}

// Issues reads one page of the source repository's issues, open and
// closed; pull requests are left out.
func (g *Guard) Issues(ctx context.Context, r ports.SourceRepo, page, limit int) ([]ports.SourceIssue, error) {
	c, err := g.sourceClient(ctx, r)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.ListRepoIssues(r.Owner, r.Name, gitea.ListIssueOption{ListOptions: sourcePage(page, limit),
		State: gitea.StateAll, Type: gitea.IssueTypeIssue})
	if err != nil {
		return nil, sourceError("issues", resp, err)
	}
	out := make([]ports.SourceIssue, 0, len(list))
	for _, i := range list {
		if i.PullRequest != nil {
			continue
		}
		si := ports.SourceIssue{Index: i.Index, Title: i.Title, Body: i.Body, Closed: i.State == gitea.StateClosed,
			Created: i.Created, Updated: i.Updated, ClosedAt: i.Closed, Comments: i.Comments}
		if i.Poster != nil {
			si.Poster, si.PosterID = i.Poster.UserName, i.Poster.ID
		}
		for _, l := range i.Labels {
			si.Labels = append(si.Labels, l.Name)
		}
		if i.Milestone != nil {
			si.Milestone = i.Milestone.Title
		}
		for _, a := range i.Assignees {
			si.Assignees = append(si.Assignees, a.UserName)
		}
		out = append(out, si)
	}
	return out, nil
}

// Comments reads one page of the plain comments of the source issue index.
func (g *Guard) Comments(ctx context.Context, r ports.SourceRepo, index int64, page, limit int) ([]ports.SourceComment, error) {
	c, err := g.sourceClient(ctx, r)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.ListIssueComments(r.Owner, r.Name, index, gitea.ListIssueCommentOptions{ListOptions: sourcePage(page, limit)})
	if err != nil {
		return nil, sourceError("comments", resp, err)
	}
	out := make([]ports.SourceComment, 0, len(list))
	for _, cm := range list {
		sc := ports.SourceComment{Body: cm.Body, Created: cm.Created, Updated: cm.Updated}
		if cm.Poster != nil {
			sc.Poster, sc.PosterID = cm.Poster.UserName, cm.Poster.ID
		}
		out = append(out, sc)
	}
	return out, nil
}
