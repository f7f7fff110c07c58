package http

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// noContent answers 204 when err is nil.
func noContent(q *request, err error) error {
	if err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// writeUserList answers a bare array of users with paging headers.
func (s *kernel) writeUserList(q *request, list []*user.User, total int64) {
	opts, _ := s.listOptions(q.r)
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
}

// listCollaborators answers GET R/collaborators.
func (s *kernel) listCollaborators(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListCollaborators(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	users := make([]*user.User, len(list))
	for i, c := range list {
		users[i] = c.User
	}
	s.writeUserList(q, users, total)
	return nil
}

// checkCollaborator answers GET R/collaborators/{collaborator}: 204, 404, or 422 for an unknown user.
func (s *kernel) checkCollaborator(q *request) error {
	return noContent(q, s.repos.IsCollaborator(q.r.Context(), q.repo, q.var_("collaborator")))
}

// addCollaborator answers PUT R/collaborators/{collaborator}.
func (s *kernel) addCollaborator(q *request) error {
	var b struct {
		Permission *string `json:"permission"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	p := ""
	if b.Permission != nil {
		p = *b.Permission
	}
	mode, err := repository.ParseCollaboratorMode("Permission", p)
	if err != nil {
		return err
	}
	return noContent(q, s.repos.AddCollaborator(q.r.Context(), q.repo, q.var_("collaborator"), mode))
}

// removeCollaborator answers DELETE R/collaborators/{collaborator}.
func (s *kernel) removeCollaborator(q *request) error {
	return noContent(q, s.repos.RemoveCollaborator(q.r.Context(), q.repo, q.var_("collaborator")))
}

// collaboratorPermission answers GET R/collaborators/{collaborator}/permission.
func (s *kernel) collaboratorPermission(q *request) error {
	cp, err := s.repos.PermissionOfUser(q.r.Context(), q.repo, q.var_("collaborator"))
	if err != nil {
		return err
	}
	mode := cp.Perm.Mode
	if mode == permission.ModeOwner {
		mode = permission.ModeAdmin
	}
	q.json(http.StatusOK, collaboratorPermissionDTO{Permission: mode.String(), RoleName: mode.String(), User: s.toUser(q.caller, cp.User)})
	return nil
}

// listAssignees answers GET R/assignees.
func (s *kernel) listAssignees(q *request) error {
	list, err := s.repos.Assignees(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// listDeployKeys answers GET R/keys (?key_id, ?fingerprint).
func (s *kernel) listDeployKeys(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	id, err := queryInt(q, "key_id")
	if err != nil {
		return err
	}
	var out []deployKeyDTO
	var total int64
	if id != 0 {
		k, err := s.repos.GetDeployKey(q.r.Context(), q.repo, id)
		if err != nil && errs.IgnoreNotFound(err) != nil {
			return err
		}
		if k != nil {
			out, total = append(out, s.toDeployKey(q.repo, k)), 1
		}
	} else {
		list, n, err := s.repos.ListDeployKeys(q.r.Context(), q.repo, q.r.URL.Query().Get("fingerprint"), opts)
		if err != nil {
			return err
		}
		for _, k := range list {
			out = append(out, s.toDeployKey(q.repo, k))
		}
		total = n
	}
	if out == nil {
		out = []deployKeyDTO{}
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getDeployKey answers GET R/keys/{id}.
func (s *kernel) getDeployKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	k, err := s.repos.GetDeployKey(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toDeployKey(q.repo, k))
	return nil
}

// addDeployKey answers POST R/keys.
func (s *kernel) addDeployKey(q *request) error {
	var b struct {
		Title    string `json:"title"`
		Key      string `json:"key"`
		ReadOnly bool   `json:"read_only"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	k, err := s.repos.AddDeployKey(q.r.Context(), q.repo, b.Title, b.Key, b.ReadOnly)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toDeployKey(q.repo, k))
	return nil
}

// deleteDeployKey answers DELETE R/keys/{id}.
func (s *kernel) deleteDeployKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.repos.DeleteDeployKey(q.r.Context(), q.repo, id))
}

// pathID reads a positive integer path variable; anything else is a 404, as
// no such resource can exist.
func pathID(q *request, name string) (int64, error) {
	id, err := parsePositive(q.var_(name))
	if err != nil {
		return 0, errs.NotFound("not found")
	}
	return id, nil
}

// listTopics answers GET R/topics.
func (s *kernel) listTopics(q *request) error {
	topics := q.repo.Repo.Topics
	if topics == nil {
		topics = []string{}
	}
	q.json(http.StatusOK, map[string][]string{"topics": topics})
	return nil
}

// replaceTopics answers PUT R/topics.
func (s *kernel) replaceTopics(q *request) error {
	var b struct {
		Topics []string `json:"topics"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	return noContent(q, s.repos.ReplaceTopics(q.r.Context(), q.repo, b.Topics))
}

// addTopic answers PUT R/topics/{topic}.
func (s *kernel) addTopic(q *request) error {
	return noContent(q, s.repos.AddTopic(q.r.Context(), q.repo, q.var_("topic")))
}

// deleteTopic answers DELETE R/topics/{topic}.
func (s *kernel) deleteTopic(q *request) error {
	return noContent(q, s.repos.RemoveTopic(q.r.Context(), q.repo, q.var_("topic")))
}

// searchTopics answers GET /topics/search.
func (s *kernel) searchTopics(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.SearchTopics(q.r.Context(), q.r.URL.Query().Get("q"), opts)
	if err != nil {
		return err
	}
	out := make([]topicDTO, len(list))
	for i, t := range list {
		out[i] = topicDTO{ID: t.ID, Name: t.Name, RepoCount: t.RepoCount, Created: t.Created.UTC(), Updated: t.Updated.UTC()}
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, map[string]any{"topics": out})
	return nil
}

// listMyStarred answers GET /user/starred.
func (s *kernel) listMyStarred(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListStarred(q.r.Context(), q.caller, q.caller.User, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// listUserStarred answers GET /users/{username}/starred.
func (s *kernel) listUserStarred(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListStarred(q.r.Context(), q.caller, q.subject, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// checkStarred answers GET /user/starred/{owner}/{repo}: 204 or 404.
func (s *kernel) checkStarred(q *request) error {
	return noContent(q, s.repos.IsStarred(q.r.Context(), q.repo))
}

// star answers PUT /user/starred/{owner}/{repo}.
func (s *kernel) star(q *request) error { return noContent(q, s.repos.Star(q.r.Context(), q.repo)) }

// unstar answers DELETE /user/starred/{owner}/{repo}.
func (s *kernel) unstar(q *request) error { return noContent(q, s.repos.Unstar(q.r.Context(), q.repo)) }

// listStargazers answers GET R/stargazers.
func (s *kernel) listStargazers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Stargazers(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

// listSubscribers answers GET R/subscribers.
func (s *kernel) listSubscribers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Watchers(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.writeUserList(q, list, total)
	return nil
}

// getSubscription answers GET R/subscription: 200 with WatchInfo, or 404.
func (s *kernel) getSubscription(q *request) error {
	w, err := s.repos.Subscription(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toWatch(q.repo, w))
	return nil
}

// watch answers PUT R/subscription.
func (s *kernel) watch(q *request) error {
	w, err := s.repos.Watch(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toWatch(q.repo, w))
	return nil
}

// unwatch answers DELETE R/subscription.
func (s *kernel) unwatch(q *request) error {
	return noContent(q, s.repos.Unwatch(q.r.Context(), q.repo))
}

// listMySubscriptions answers GET /user/subscriptions.
func (s *kernel) listMySubscriptions(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListWatched(q.r.Context(), q.caller, q.caller.User, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// listUserSubscriptions answers GET /users/{username}/subscriptions.
func (s *kernel) listUserSubscriptions(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListWatched(q.r.Context(), q.caller, q.subject, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// listForks answers GET R/forks.
func (s *kernel) listForks(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListForks(q.r.Context(), q.repo, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// createFork answers POST R/forks with 202 and the fork.
func (s *kernel) createFork(q *request) error {
	var b struct {
		Organization *string `json:"organization"`
		Name         *string `json:"name"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := repos.ForkInput{}
	if b.Organization != nil {
		in.Organization = *b.Organization
	}
	if b.Name != nil {
		in.Name = *b.Name
	}
	r, err := s.repos.Fork(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusAccepted, r.ID)
}

// transferRepo answers POST R/transfer: 202 when done, 201 when it waits for the recipient.
func (s *kernel) transferRepo(q *request) error {
	var b struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	res, err := s.repos.Transfer(q.r.Context(), q.repo, b.NewOwner)
	if err != nil {
		return err
	}
	status := http.StatusAccepted
	if res.Pending {
		status = http.StatusCreated
	}
	return s.answerRepo(q, status, res.Repo.ID)
}

// acceptTransfer answers POST R/transfer/accept with 202.
func (s *kernel) acceptTransfer(q *request) error {
	r, err := s.repos.AcceptTransfer(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusAccepted, r.ID)
}

// rejectTransfer answers POST R/transfer/reject with 200.
func (s *kernel) rejectTransfer(q *request) error {
	r, err := s.repos.RejectTransfer(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	a := *q.repo
	a.Repo = r
	d, err := s.renderRepo(q.r.Context(), &a)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, d)
	return nil
}

// generateRepo answers POST R/generate with 201.
func (s *kernel) generateRepo(q *request) error {
	var b struct {
		Owner           string `json:"owner"`
		Name            string `json:"name"`
		DefaultBranch   string `json:"default_branch"`
		Description     string `json:"description"`
		Private         bool   `json:"private"`
		GitContent      bool   `json:"git_content"`
		Topics          bool   `json:"topics"`
		GitHooks        bool   `json:"git_hooks"`
		Webhooks        bool   `json:"webhooks"`
		Avatar          bool   `json:"avatar"`
		Labels          bool   `json:"labels"`
		ProtectedBranch bool   `json:"protected_branch"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	r, err := s.repos.Generate(q.r.Context(), q.repo, repos.GenerateInput{
		Owner: b.Owner, Name: b.Name, Description: b.Description, DefaultBranch: b.DefaultBranch, Private: b.Private,
		GitContent: b.GitContent, Topics: b.Topics, Avatar: b.Avatar, GitHooks: b.GitHooks, Webhooks: b.Webhooks,
		Labels: b.Labels, ProtectedBranch: b.ProtectedBranch,
	})
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusCreated, r.ID)
}

// avatarImage reads Gitea's UpdateUserAvatarOption / UpdateRepoAvatarOption:
// 422 without an image, 400 when it is not base64 (as Gitea answers).
func avatarImage(q *request) ([]byte, error) {
	var b struct {
		Image string `json:"image"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return nil, err
	}
	if b.Image == "" {
		return nil, errs.Invalid("Required", "Image")
	}
	img, err := base64.StdEncoding.DecodeString(b.Image)
	if err != nil {
		return nil, errs.BadRequest("image: invalid base64")
	}
	return img, nil
}

// setRepoAvatar answers POST R/avatar.
func (s *kernel) setRepoAvatar(q *request) error {
	img, err := avatarImage(q)
	if err != nil {
		return err
	}
	return noContent(q, s.repos.SetAvatar(q.r.Context(), q.repo, img))
}

// deleteRepoAvatar answers DELETE R/avatar.
func (s *kernel) deleteRepoAvatar(q *request) error {
	return noContent(q, s.repos.DeleteAvatar(q.r.Context(), q.repo))
}

// serveRepoAvatar answers GET /repo-avatars/{hash} with the PNG.
func (s *kernel) serveRepoAvatar(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimPrefix(r.URL.Path, "/repo-avatars/")
	img, err := s.repos.Avatar(r.Context(), hash)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400, immutable")
	_, _ = w.Write(img) // a failed write means the client left
}
