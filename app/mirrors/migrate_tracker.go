package mirrors

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// MigrateExtras are what a migration may copy besides the Git data, as
// Gitea's MigrateRepoOptions names them.
type MigrateExtras struct {
	// Service is the kind of server migrated from ("git", "gitea", "github", …).
	Service                                        string
	Wiki, Milestones, Labels, Issues, PullRequests bool
	Releases, LFS                                  bool
}

// apiServices are the services whose API Depot reads to migrate labels,
// milestones and issues: Gitea's and the servers that speak it.
var apiServices = []string{"gitea", "gogs", "forgejo"}

// sourcePageSize is how many records one request to the source asks for and
// one transaction writes.
const sourcePageSize = 50

// unsupportedExtras names the options asked for that this migration cannot
// honour: the wiki, pull requests, releases and LFS objects, which Depot
// does not keep; labels, milestones and issues from a service whose API it
// does not speak, or into a mirror (whose tracker is its own). Gitea drops
// them without a word; the caller is told instead, before anything is made.
func (x MigrateExtras) unsupported(mirror bool) []string {
	var fields []string
	add := func(on bool, field string) {
		if on {
			fields = append(fields, field)
		}
	}
	add(x.Wiki, "Wiki")
	add(x.PullRequests, "PullRequests")
	add(x.Releases, "Releases")
	add(x.LFS, "LFS")
	if mirror || !slices.Contains(apiServices, strings.ToLower(x.Service)) {
		add(x.Labels, "Labels")
		add(x.Milestones, "Milestones")
		add(x.Issues, "Issues")
	}
	return fields
}

// checkExtras refuses, with one 422 naming every such field, the options of
// in this migration cannot honour.
func checkExtras(in MigrateInput) error {
	fields := in.Extras.unsupported(in.Mirror)
	if len(fields) == 0 {
		return nil
	}
	why := "not supported: Depot migrates labels, milestones and issues (with their comments) from a Gitea, Gogs or Forgejo server into a repository that is not a mirror, and no wiki, pull requests, releases or LFS objects"
	return errs.Invalid(why, fields...)
}

// sourceRepo is the repository clean (the clone address without
// credentials) names on its server: the last two path segments are owner
// and name (".git" trimmed), what comes before them the server's sub-path.
func sourceRepo(clean string) (ports.SourceRepo, error) {
	u, err := url.Parse(clean)
	if err != nil {
		return ports.SourceRepo{}, errs.Invalid("invalid URL", "CloneAddr")
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 || parts[len(parts)-2] == "" || parts[len(parts)-1] == "" {
		return ports.SourceRepo{}, errs.Invalid("the address names no owner/repository", "CloneAddr")
	}
	n := len(parts)
	base := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/" + strings.Join(parts[:n-2], "/")}
	return ports.SourceRepo{BaseURL: strings.TrimSuffix(base.String(), "/"), Owner: parts[n-2],
		Name: strings.TrimSuffix(parts[n-1], ".git")}, nil
}

// tracker is the state of one tracker migration: the new repository, the
// migrating user, and the ids the copied labels and milestones got by name.
type tracker struct {
	s          *Service
	repo       *repository.Repository
	src        ports.SourceRepo
	doerID     int64
	labels     map[string]int64
	milestones map[string]int64
	users      map[string]int64
}

// migrateTracker copies the source's labels, milestones and issues with
// their comments, as asked, into r: one request to the source per page, one
// transaction per page written, never a transaction across a request. A
// failure leaves the caller to discard r.
func (s *Service) migrateTracker(ctx context.Context, r *repository.Repository, src ports.SourceRepo, doerID int64, x MigrateExtras) error {
	t := &tracker{s: s, repo: r, src: src, doerID: doerID, labels: map[string]int64{},
		milestones: map[string]int64{}, users: map[string]int64{}}
	if x.Labels {
		if err := t.copyLabels(ctx); err != nil {
			return err
		}
	}
	if x.Milestones {
		if err := t.copyMilestones(ctx); err != nil {
			return err
		}
	}
	if x.Issues {
		return t.copyIssues(ctx)
	}
	return nil
}

func (t *tracker) copyLabels(ctx context.Context) error {
	for page := 1; ; page++ {
		list, err := t.s.source.Labels(ctx, t.src, page, sourcePageSize)
		if err != nil {
			return err
		}
		err = t.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for _, sl := range list {
				if _, dup := t.labels[sl.Name]; dup {
					continue
				}
				l, err := issue.NewLabel(issue.LabelInput{Name: &sl.Name, Color: &sl.Color, Description: &sl.Description,
					Exclusive: &sl.Exclusive}, t.s.clock.Now())
				if err != nil {
					return errs.Invalid("migration failed: the source's label "+quoteName(sl.Name)+" is not valid here", "CloneAddr")
				}
				l.RepoID = t.repo.ID
				if err := tx.Labels.Create(ctx, l); err != nil {
					return err
				}
				t.labels[sl.Name] = l.ID
			}
			return nil
		})
		if err != nil || len(list) < sourcePageSize {
			return err
		}
	}
}

func (t *tracker) copyMilestones(ctx context.Context) error {
	for page := 1; ; page++ {
		list, err := t.s.source.Milestones(ctx, t.src, page, sourcePageSize)
		if err != nil {
			return err
		}
		err = t.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for _, sm := range list {
				if _, dup := t.milestones[sm.Title]; dup {
					continue
				}
				m := &issue.Milestone{RepoID: t.repo.ID, Title: sm.Title, Description: sm.Description, IsClosed: sm.Closed,
					DueAt: sm.Deadline, CreatedAt: sm.Created, UpdatedAt: sm.Updated}
				if sm.Closed {
					m.ClosedAt = sm.ClosedAt
				}
				if err := tx.Milestones.Create(ctx, m); err != nil {
					return err
				}
				t.milestones[sm.Title] = m.ID
			}
			return nil
		})
		if err != nil || len(list) < sourcePageSize {
			return err
		}
	}
}

// copyIssues reads the list of the source's issues, then writes them in
// the source's order of numbers, each under its source number, a page per
// transaction, each with its comments (read before the transaction opens).
// The list is read whole first because the source lists newest first and
// numbers are given in increasing order.
func (t *tracker) copyIssues(ctx context.Context) error {
	var all []ports.SourceIssue
	for page := 1; ; page++ {
		list, err := t.s.source.Issues(ctx, t.src, page, sourcePageSize)
		if err != nil {
			return err
		}
		all = append(all, list...)
		if len(list) < sourcePageSize {
			break
		}
	}
	slices.SortFunc(all, func(a, b ports.SourceIssue) int { return int(a.Index - b.Index) })
	for start := 0; start < len(all); start += sourcePageSize {
		batch := all[start:min(start+sourcePageSize, len(all))]
		comments := make([][]ports.SourceComment, len(batch))
		for i, si := range batch {
			var err error
			if comments[i], err = t.readComments(ctx, si); err != nil {
				return err
			}
		}
		if err := t.writeIssues(ctx, batch, comments); err != nil {
			return err
		}
	}
	return nil
}

func (t *tracker) readComments(ctx context.Context, si ports.SourceIssue) ([]ports.SourceComment, error) {
	if si.Comments == 0 {
		return nil, nil
	}
	var out []ports.SourceComment
	for page := 1; ; page++ {
		list, err := t.s.source.Comments(ctx, t.src, si.Index, page, sourcePageSize)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
		if len(list) < sourcePageSize {
			return out, nil
		}
	}
}

// writeIssues creates one page of issues with their labels, milestone,
// assignees and comments in one transaction, and recounts the labels and
// milestones they use.
func (t *tracker) writeIssues(ctx context.Context, batch []ports.SourceIssue, comments [][]ports.SourceComment) error {
	assignees := make([][]int64, len(batch))
	notes := make([]string, len(batch))
	for i, si := range batch {
		var dropped []string
		for _, name := range si.Assignees {
			id, err := t.localUser(ctx, name)
			if err != nil {
				return err
			}
			if id == 0 {
				dropped = append(dropped, name)
				continue
			}
			assignees[i] = append(assignees[i], id)
		}
		notes[i] = droppedAssigneesNote(dropped)
	}
	return t.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var labelIDs, milestoneIDs []int64
		for i, si := range batch {
			// As Gitea's uploader does for an author no account here stands
			// for: the migrating user posts the copy, which names the
			// original author.
			is := &issue.Issue{RepoID: t.repo.ID, PosterID: t.doerID, OriginalAuthor: si.Poster,
				OriginalAuthorID: si.PosterID, Title: si.Title, Body: si.Body + notes[i],
				IsClosed: si.Closed, MilestoneID: t.milestones[si.Milestone], CreatedAt: si.Created, UpdatedAt: si.Updated}
			if si.Closed {
				is.ClosedAt = si.ClosedAt
				if is.ClosedAt == nil {
					at := si.Updated
					is.ClosedAt = &at
				}
			}
			// The copy keeps the source's number: the numbers the source
			// skipped (its pull requests, deleted issues) stay unused here.
			if err := tx.Issues.ReserveIndexes(ctx, t.repo.ID, si.Index-1); err != nil {
				return err
			}
			if err := tx.Issues.Create(ctx, is); err != nil {
				return err
			}
			if is.MilestoneID != 0 {
				milestoneIDs = append(milestoneIDs, is.MilestoneID)
			}
			var ids []int64
			for _, name := range si.Labels {
				if id, ok := t.labels[name]; ok {
					ids = append(ids, id)
				}
			}
			if len(ids) > 0 {
				if err := tx.Labels.AddToIssue(ctx, is.ID, ids); err != nil {
					return err
				}
				labelIDs = append(labelIDs, ids...)
			}
			if len(assignees[i]) > 0 {
				if err := tx.Issues.SetAssignees(ctx, is.ID, assignees[i]); err != nil {
					return err
				}
			}
			for _, sc := range comments[i] {
				c := &issue.Comment{Type: issue.CommentPlain, IssueID: is.ID, RepoID: t.repo.ID, PosterID: t.doerID,
					OriginalAuthor: sc.Poster, OriginalAuthorID: sc.PosterID, Body: sc.Body,
					CreatedAt: sc.Created, UpdatedAt: sc.Updated}
				if err := tx.Comments.Create(ctx, c); err != nil {
					return err
				}
			}
			// A comment moves the issue's updated_at; the source's stands.
			if err := tx.Issues.Touch(ctx, is.ID, si.Updated); err != nil {
				return err
			}
		}
		if len(labelIDs) > 0 {
			if err := tx.Labels.Recount(ctx, uniq(labelIDs)); err != nil {
				return err
			}
		}
		if len(milestoneIDs) == 0 {
			return nil
		}
		return tx.Milestones.Recount(ctx, uniq(milestoneIDs))
	})
}

// localUser is the id of the account called name here, 0 when there is none.
func (t *tracker) localUser(ctx context.Context, name string) (int64, error) {
	if id, ok := t.users[name]; ok {
		return id, nil
	}
	u, err := t.s.stores.Users.GetByName(ctx, name)
	var id int64
	switch {
	case errors.Is(err, errs.ErrNotFound):
	case err != nil:
		return 0, err
	default:
		id = u.ID
	}
	t.users[name] = id
	return id, nil
}

// droppedAssigneesNote is what a copied issue's text says of the
// assignees it cannot carry, who have no account here ("" when none).
func droppedAssigneesNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "\n\n---\n_Assignees on the source without an account here: @" + strings.Join(names, ", @") + "._"
}

func quoteName(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}

func uniq(ids []int64) []int64 {
	slices.Sort(ids)
	return slices.Compact(ids)
}
