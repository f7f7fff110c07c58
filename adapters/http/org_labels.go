package http

import "net/http"

// orgLabels serves an organisation's labels (catalogue 4.8), which the
// issues of all its repositories may carry.
type orgLabels struct{ *kernel }

// orgLabelRoutes are the rows of orgLabels.
func (s *kernel) orgLabelRoutes() []route {
	h := orgLabels{s}
	return []route{
		{"GET", "/orgs/{org}/labels", scopes(catOrg), "-", h.listOrgLabels},
		{"POST", "/orgs/{org}/labels", scopes(catOrg), "T,OO", h.createOrgLabel},
		{"GET", "/orgs/{org}/labels/{id}", scopes(catOrg), "T", h.getOrgLabel},
		{"PATCH", "/orgs/{org}/labels/{id}", scopes(catOrg), "T,OO", h.editOrgLabel},
		{"DELETE", "/orgs/{org}/labels/{id}", scopes(catOrg), "T,OO", h.deleteOrgLabel},
	}
}

// listOrgLabels answers GET /orgs/{org}/labels.
func (s orgLabels) listOrgLabels(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.OrgLabels().List(q.r.Context(), q.org.Org.ID, opts)
	if err != nil {
		return err
	}
	api := s.orgAPIURL(q.org.Org.Name)
	out := make([]labelDTO, len(list))
	for i, l := range list {
		out[i] = toLabelDTO(l, api)
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getOrgLabel answers GET /orgs/{org}/labels/{id}; {id} may be a name.
func (s orgLabels) getOrgLabel(q *request) error {
	l, err := s.issues.OrgLabels().Get(q.r.Context(), q.org.Org.ID, q.var_("id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// createOrgLabel answers POST /orgs/{org}/labels with 201.
func (s orgLabels) createOrgLabel(q *request) error {
	in, err := decodeCreateLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.OrgLabels().Create(q.r.Context(), q.org.Org.ID, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// editOrgLabel answers PATCH /orgs/{org}/labels/{id}.
func (s orgLabels) editOrgLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	in, err := decodeEditLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.OrgLabels().Edit(q.r.Context(), q.org.Org.ID, id, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// deleteOrgLabel answers DELETE /orgs/{org}/labels/{id} with 204.
func (s orgLabels) deleteOrgLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.OrgLabels().Delete(q.r.Context(), q.org.Org.ID, id))
}
