package http

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// npmDocument answers GET …/npm/{name}: the package document npm installs
// from. Each version's part is rendered once and kept (npmVersionParts);
// the document around them is written as it is assembled.
func (s *kernel) npmDocument(c *registryCall, name string) error {
	if err := npmName(name); err != nil {
		return err
	}
	doc, err := s.packages.NpmPackage(c.r.Context(), c.owner, name)
	if err != nil {
		return err
	}
	pkg := doc.Package.Name
	parts := make([][]byte, len(doc.Versions))
	times := make(map[string]string, len(doc.Versions)+2)
	var latest []byte
	for i, v := range doc.Versions {
		in := npmVersionInput{owner: c.owner.Name, pkg: pkg, version: v.Version, metadata: v.Metadata}
		if files := doc.Files[v.ID]; len(files) > 0 {
			f := files[0]
			in.file, in.sha1, in.sha512 = f.Name, f.Blob.SHA1, f.Blob.SHA512
		}
		if parts[i], err = s.npmVersionPart(v.ID, in); err != nil {
			return err
		}
		stamp := v.CreatedAt.UTC().Format(time.RFC3339)
		times[v.Version] = stamp
		if _, ok := times["created"]; !ok {
			times["created"] = stamp
		}
		times["modified"] = stamp
		if v.Version == doc.Tags["latest"] {
			latest = parts[i]
		}
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	field := func(key string, v any) error {
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(raw)
		return nil
	}
	buf.WriteByte('{')
	for _, f := range []struct {
		key string
		v   any
	}{{"_id", pkg}, {"name", pkg}, {"dist-tags", doc.Tags}, {"time", times}} {
		if err := field(f.key, f.v); err != nil {
			return err
		}
	}
	if latest != nil {
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(latest, &meta); err != nil {
			return err
		}
		for _, k := range []string{"description", "readme", "license", "keywords", "homepage", "repository", "author"} {
			if v, ok := meta[k]; ok {
				if err := field(k, v); err != nil {
					return err
				}
			}
		}
	}
	buf.WriteString(`,"versions":{`)
	for i, v := range doc.Versions {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(v.Version)
		if err != nil {
			return err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(parts[i])
	}
	buf.WriteString("}}\n")
	c.w.Header().Set("Content-Type", "application/json;charset=utf-8")
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(buf.Bytes())
	return nil
}

// npmVersionInput is everything a version's part of the package document
// is made of.
type npmVersionInput struct {
	owner, pkg, version, metadata string
	// file, sha1 and sha512 are the version's tarball's; "" when it has none.
	file, sha1, sha512 string
}

// npmVersionPart is the version's entry in the package document: its
// stored package.json with the tarball's dist (shasum, integrity, URL) and
// its _id, from npmVersionParts when it was rendered from the same input.
func (s *kernel) npmVersionPart(versionID int64, in npmVersionInput) ([]byte, error) {
	if raw, ok := s.npmParts.get(versionID, in); ok {
		return raw, nil
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(in.metadata), &meta); err != nil || meta == nil {
		meta = map[string]any{"name": in.pkg, "version": in.version}
	}
	if in.file != "" {
		integrity := ""
		if raw, err := hex.DecodeString(in.sha512); err == nil {
			integrity = "sha512-" + base64.StdEncoding.EncodeToString(raw)
		}
		meta["dist"] = map[string]any{"shasum": in.sha1, "integrity": integrity,
			"tarball": s.npmTarballURL(in.owner, in.pkg, in.version, in.file)}
	}
	meta["_id"] = in.pkg + "@" + in.version
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	s.npmParts.put(versionID, in, raw)
	return raw, nil
}

// npmPartsBytes bounds what npmVersionParts holds together.
const npmPartsBytes = 32 << 20

// npmVersionParts keeps rendered versions of npm package documents by
// version id, each with the input it was rendered from: an entry serves
// only a request whose version row, tarball, owner name and package name
// are still what they were (they are read from the database every time),
// so a deprecation, a renamed owner or a re-published version renders
// again, and a deleted version is never asked for. Past npmPartsBytes,
// entries are dropped in the map's (random) order. The zero value and nil
// keep nothing.
type npmVersionParts struct {
	mu    sync.RWMutex
	bytes int
	byID  map[int64]npmVersionPartEntry
}

type npmVersionPartEntry struct {
	in  npmVersionInput
	raw []byte
}

func (p *npmVersionParts) get(id int64, in npmVersionInput) ([]byte, bool) {
	if p == nil {
		return nil, false
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	e, ok := p.byID[id]
	if !ok || e.in != in {
		return nil, false
	}
	return e.raw, true
}

func (p *npmVersionParts) put(id int64, in npmVersionInput, raw []byte) {
	if p == nil {
		return
	}
	size := len(raw) + len(in.metadata)
	if size > npmPartsBytes/16 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byID == nil {
		p.byID = map[int64]npmVersionPartEntry{}
	}
	if old, ok := p.byID[id]; ok {
		delete(p.byID, id)
		p.bytes -= len(old.raw) + len(old.in.metadata)
	}
	for k, e := range p.byID {
		if p.bytes+size <= npmPartsBytes {
			break
		}
		delete(p.byID, k)
		p.bytes -= len(e.raw) + len(e.in.metadata)
	}
	p.byID[id] = npmVersionPartEntry{in: in, raw: raw}
	p.bytes += size
}
