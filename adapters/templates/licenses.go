package templates

import (
	"fmt"
	"io/fs"
	"strings"

	"buf.build/go/spdx"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/google/licenseclassifier/v2/assets"
)

// licenseDirAliases maps SPDX ids to the licenseclassifier folder that holds
// the same text under another name.
var licenseDirAliases = map[string]string{
	"0BSD": "BSD-0-Clause",
	"curl": "cURL",
}

// licenseVersionSuffixes mark SPDX ids that differ from a base id only in
// the "or later" grant, which lives in the notice, not the licence text:
// GPL-3.0-or-later has GPL-3.0's text.
var licenseVersionSuffixes = []string{"-only", "-or-later", "+"}

// licenseFileNames are tried in order inside a licence's folder; the
// pristine text is the licence as published, license.txt the common form.
var licenseFileNames = []string{"pristine.txt", "license.txt"}

// licenseIndex lists the licences that have a text and where each text is.
// Only paths are kept: the texts stay embedded until asked for.
type licenseIndex struct {
	infos []ports.LicenseInfo
	paths map[string]licensePath // lower-case SPDX id → where its text is
}

// licensePath is where one licence's text is: a file of licenses/ (SPDX's
// text, as Gitea ships it) when one is shipped, else a licenseclassifier
// asset.
type licensePath struct {
	shipped bool
	path    string
}

// loadLicenses indexes every SPDX id that has a text, shipped or in
// licenseclassifier's assets. The assets package can only list its top
// folder, so the SPDX list drives the search and each id's candidate files
// are probed directly.
func loadLicenses() licenseIndex {
	idx := licenseIndex{paths: map[string]licensePath{}}
	for _, l := range spdx.AllLicenses() { // sorted by id
		path, ok := licenseTextPath(l.ID)
		if !ok {
			continue
		}
		idx.infos = append(idx.infos, ports.LicenseInfo{
			Key:  l.ID,
			Name: l.Name,
			URL:  "https://spdx.org/licenses/" + l.ID + ".html",
		})
		idx.paths[strings.ToLower(l.ID)] = path
	}
	return idx
}

// licenseTextPath finds id's text: the shipped one first, then the
// classifier's, each by the id itself and then by its base id.
func licenseTextPath(id string) (licensePath, bool) {
	for _, find := range []func(string) (licensePath, bool){shippedLicense, licenseFile} {
		if path, ok := find(id); ok {
			return path, true
		}
		for _, suffix := range licenseVersionSuffixes {
			if base, ok := strings.CutSuffix(id, suffix); ok {
				if path, ok := find(base); ok {
					return path, true
				}
			}
		}
	}
	return licensePath{}, false
}

// shippedLicense finds id among the SPDX texts copied into licenses/.
func shippedLicense(id string) (licensePath, bool) {
	path := "licenses/" + id
	if _, err := fs.Stat(data, path); err != nil {
		return licensePath{}, false
	}
	return licensePath{shipped: true, path: path}, true
}

func licenseFile(id string) (licensePath, bool) {
	dir := id
	if alias, ok := licenseDirAliases[id]; ok {
		dir = alias
	}
	for _, name := range licenseFileNames {
		path := "License/" + dir + "/" + name
		if _, err := assets.ReadLicenseFile(path); err == nil {
			return licensePath{path: path}, true
		}
	}
	return licensePath{}, false
}

func (t *Templates) licenseIndex() *licenseIndex {
	t.licensesOnce.Do(func() { t.licenses = loadLicenses() })
	return &t.licenses
}

// Licenses returns the licences that have a text, sorted by SPDX id.
func (t *Templates) Licenses() []ports.LicenseInfo {
	infos := t.licenseIndex().infos
	out := make([]ports.LicenseInfo, len(infos))
	copy(out, infos)
	return out
}

// License returns the licence with the SPDX id name, matched without regard
// to case.
func (t *Templates) License(name string) (*ports.License, error) {
	idx := t.licenseIndex()
	path, ok := idx.paths[strings.ToLower(name)]
	if !ok {
		return nil, errs.NotFound("license not found")
	}
	l, ok := spdx.LicenseForID(name)
	if !ok {
		return nil, fmt.Errorf("templates: licence %q indexed but not in the SPDX list", name)
	}
	read := assets.ReadLicenseFile
	if path.shipped {
		read = data.ReadFile
	}
	body, err := read(path.path)
	if err != nil {
		return nil, fmt.Errorf("templates: read licence %s: %w", l.ID, err)
	}
	return &ports.License{
		LicenseInfo: ports.LicenseInfo{Key: l.ID, Name: l.Name, URL: "https://spdx.org/licenses/" + l.ID + ".html"},
		Body:        string(body),
	}, nil
}
