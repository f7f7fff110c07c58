package http

// writeReleases answers a page of releases. A page of fifty carries its
// publisher fifty times and a hundred assets, and encoding/json's
// reflection was a third of the listing's cost: the page is encoded by hand
// with the issue list's primitives (issue_list_encoder.go), each publisher
// written once and copied after; the bytes are writeJSON's
// (release_list_encoder_test.go compares them).
func (s *kernel) writeReleases(q *request, status int, list []releaseDTO) {
	writeEncodedJSON(q, status, list, func(b []byte) ([]byte, error) { return appendReleasesJSON(b, list) })
}

// appendReleasesJSON appends list as encoding/json would encode it.
func appendReleasesJSON(b []byte, list []releaseDTO) ([]byte, error) {
	e := &issueJSON{b: b}
	// Publishers by id: on one page an id always renders the same object.
	publishers := map[int64][2]int{}
	jsonList(e, list, func(d *releaseDTO) { e.release(d, publishers) })
	return e.b, e.err
}

func (e *issueJSON) release(d *releaseDTO, publishers map[int64][2]int) {
	e.b = append(e.b, '{')
	e.int("id", d.ID)
	e.b = append(e.b, ',')
	e.str("tag_name", d.TagName)
	e.b = append(e.b, ',')
	e.str("target_commitish", d.Target)
	e.b = append(e.b, ',')
	e.str("name", d.Title)
	e.b = append(e.b, ',')
	e.str("body", d.Note)
	e.b = append(e.b, ',')
	e.str("url", d.URL)
	e.b = append(e.b, ',')
	e.str("html_url", d.HTMLURL)
	e.b = append(e.b, ',')
	e.str("tarball_url", d.TarURL)
	e.b = append(e.b, ',')
	e.str("zipball_url", d.ZipURL)
	e.b = append(e.b, ',')
	e.bool("hide_archive_links", d.HideArchiveLinks)
	e.b = append(e.b, ',')
	e.str("upload_url", d.UploadURL)
	e.b = append(e.b, ',')
	e.bool("draft", d.IsDraft)
	e.b = append(e.b, ',')
	e.bool("prerelease", d.IsPrerelease)
	e.b = append(e.b, ',')
	e.time("created_at", d.CreatedAt)
	e.b = append(e.b, ',')
	e.timePtr("published_at", d.PublishedAt)
	e.b = append(e.b, ',')
	e.key("author")
	if at, ok := publishers[d.Publisher.ID]; ok {
		e.b = append(e.b, e.b[at[0]:at[1]]...)
	} else {
		start := len(e.b)
		e.user(&d.Publisher)
		publishers[d.Publisher.ID] = [2]int{start, len(e.b)}
	}
	e.b = append(e.b, ',')
	e.key("assets")
	jsonList(e, d.Attachments, e.asset)
	e.b = append(e.b, '}')
}

// asset writes a release asset: an attachment with its type last.
func (e *issueJSON) asset(a *assetDTO) {
	e.attachment(&a.attachmentDTO)
	e.b = e.b[:len(e.b)-1] // the attachment's closing brace
	e.b = append(e.b, ',')
	e.str("type", a.Type)
	e.b = append(e.b, '}')
}
