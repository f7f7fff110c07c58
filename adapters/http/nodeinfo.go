package http

import (
	"net/http"

	"github.com/depothq/depot/app/federation"
)

// nodeInfo serves NodeInfo 2.1 (catalogue 4.1), when federation is on.
type nodeInfo struct{ *kernel }

// nodeInfoRoutes is the row of GET /nodeinfo.
func (s *kernel) nodeInfoRoutes() []route {
	h := nodeInfo{s}
	return []route{
		{"GET", "/nodeinfo", nil, "-", h.getNodeInfo},
	}
}

// nodeInfoDTO is Gitea's NodeInfo (NodeInfo 2.1's schema).
type nodeInfoDTO struct {
	Version           string              `json:"version"`
	Software          nodeInfoSoftwareDTO `json:"software"`
	Protocols         []string            `json:"protocols"`
	Services          nodeInfoServicesDTO `json:"services"`
	OpenRegistrations bool                `json:"openRegistrations"`
	Usage             nodeInfoUsageDTO    `json:"usage"`
	Metadata          struct{}            `json:"metadata"`
}

type nodeInfoSoftwareDTO struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	Repository string `json:"repository"`
	Homepage   string `json:"homepage"`
}

type nodeInfoServicesDTO struct {
	Inbound  []string `json:"inbound"`
	Outbound []string `json:"outbound"`
}

type nodeInfoUsageDTO struct {
	Users         nodeInfoUsersDTO `json:"users"`
	LocalPosts    int64            `json:"localPosts,omitempty"`
	LocalComments int64            `json:"localComments,omitempty"`
}

type nodeInfoUsersDTO struct {
	Total          int64 `json:"total,omitempty"`
	ActiveHalfyear int64 `json:"activeHalfyear,omitempty"`
	ActiveMonth    int64 `json:"activeMonth,omitempty"`
}

// getNodeInfo answers GET /nodeinfo: 404 while federation is off.
func (h nodeInfo) getNodeInfo(q *request) error {
	info, err := h.federation.NodeInfo(q.r.Context())
	if err != nil {
		return err
	}
	writeJSON(q.w, http.StatusOK, h.nodeInfoDTO(info))
	return nil
}

func (h nodeInfo) nodeInfoDTO(info federation.NodeInfo) nodeInfoDTO {
	d := nodeInfoDTO{
		Version: "2.1",
		Software: nodeInfoSoftwareDTO{Name: "depot", Version: APILevel + "+depot." + Version,
			Repository: "https://github.com/depothq/depot.git", Homepage: "https://github.com/depothq/depot"},
		Protocols: []string{"activitypub"},
		Services:  nodeInfoServicesDTO{Inbound: []string{}, Outbound: []string{"rss2.0"}},
		// Depot has no sign-up: accounts are made by administrators.
		OpenRegistrations: false,
	}
	if u := info.Usage; u != nil {
		d.Usage = nodeInfoUsageDTO{
			Users:      nodeInfoUsersDTO{Total: u.Users, ActiveHalfyear: u.ActiveHalfyear, ActiveMonth: u.ActiveMonth},
			LocalPosts: u.Issues, LocalComments: u.Comments,
		}
	}
	return d
}

// nodeInfoWellKnownPath is where NodeInfo clients look first.
const nodeInfoWellKnownPath = "/.well-known/nodeinfo"

// serveNodeInfoWellKnown points NodeInfo clients at the document, as
// Gitea does, while federation is on.
func (s *kernel) serveNodeInfoWellKnown(w http.ResponseWriter, r *http.Request) {
	if !s.federation.Enabled() {
		http.NotFound(w, r)
		return
	}
	type link struct {
		Href string `json:"href"`
		Rel  string `json:"rel"`
	}
	writeJSON(w, http.StatusOK, struct {
		Links []link `json:"links"`
	}{[]link{{Href: s.baseURL + apiPrefix + "/nodeinfo", Rel: "http://nodeinfo.diaspora.software/ns/schema/2.1"}}})
}
