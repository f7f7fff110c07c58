package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
)

// createStatusDTO is Gitea's CreateStatusOption.
type createStatusDTO struct {
	State       string `json:"state"`
	TargetURL   string `json:"target_url"`
	Description string `json:"description"`
	Context     string `json:"context"`
}

// commitStatusDTO is Gitea's CommitStatus. Gitea names the state "status"
// here (and "state" in the request and in CombinedStatus), and shows the
// per-commit index as the id.
type commitStatusDTO struct {
	ID          int64     `json:"id"`
	State       string    `json:"status"`
	TargetURL   string    `json:"target_url"`
	Description string    `json:"description"`
	URL         string    `json:"url"`
	Context     string    `json:"context"`
	Creator     *userDTO  `json:"creator"`
	Created     time.Time `json:"created_at"`
	Updated     time.Time `json:"updated_at"`
}

// combinedStatusDTO is Gitea's CombinedStatus.
type combinedStatusDTO struct {
	State      string            `json:"state"`
	SHA        string            `json:"sha"`
	TotalCount int64             `json:"total_count"`
	Statuses   []commitStatusDTO `json:"statuses"`
	Repository *repoDTO          `json:"repository"`
	CommitURL  string            `json:"commit_url"`
	URL        string            `json:"url"`
}

// toCommitStatus renders st; a creator whose account is gone is null.
func (s *kernel) toCommitStatus(c auth.Caller, a *repos.Access, st *commitstatus.Status, page content.StatusPage) commitStatusDTO {
	d := commitStatusDTO{
		ID: st.Index, State: string(st.State), TargetURL: st.TargetURL, Description: st.Description,
		URL:     s.repoAPIURL(a) + "/statuses/" + url.PathEscape(st.SHA),
		Context: st.Context, Created: st.Created.UTC(), Updated: st.Updated.UTC(),
	}
	if u := page.Creators[st.CreatorID]; u != nil {
		cu := s.toUser(c, u)
		d.Creator = &cu
	}
	return d
}

func (s *kernel) toCommitStatuses(c auth.Caller, a *repos.Access, page content.StatusPage) []commitStatusDTO {
	out := make([]commitStatusDTO, 0, len(page.Statuses))
	for _, st := range page.Statuses {
		out = append(out, s.toCommitStatus(c, a, st, page))
	}
	return out
}
