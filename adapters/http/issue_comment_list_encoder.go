package http

// appendCommentsJSON appends a page of comments as encoding/json would
// encode it, with the issue list's primitives (issue_list_encoder.go): a
// comment page's reflection was a fifth of its cost. Authors shared by
// pointer are written once and copied after.
func appendCommentsJSON(b []byte, list []commentDTO) ([]byte, error) {
	e := &issueJSON{b: b}
	jsonList(e, list, e.comment)
	return e.b, e.err
}

func (e *issueJSON) comment(c *commentDTO) {
	e.b = append(e.b, '{')
	e.int("id", c.ID)
	e.b = append(e.b, ',')
	e.str("html_url", c.HTMLURL)
	e.b = append(e.b, ',')
	e.str("pull_request_url", c.PRURL)
	e.b = append(e.b, ',')
	e.str("issue_url", c.IssueURL)
	e.b = append(e.b, ',')
	e.key("user")
	e.userPtr(c.User)
	e.b = append(e.b, ',')
	e.str("original_author", c.OriginalAuthor)
	e.b = append(e.b, ',')
	e.int("original_author_id", c.OriginalAuthorID)
	e.b = append(e.b, ',')
	e.str("body", c.Body)
	e.b = append(e.b, ',')
	e.key("assets")
	jsonList(e, c.Assets, e.attachment)
	e.b = append(e.b, ',')
	e.time("created_at", c.Created)
	e.b = append(e.b, ',')
	e.time("updated_at", c.Updated)
	e.b = append(e.b, '}')
}
