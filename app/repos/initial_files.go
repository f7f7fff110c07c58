package repos

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// initialFiles are the README, licence and .gitignore of auto_init, byte for
// byte as Gitea's prepareRepoCommit writes them, so a repository made here
// and one made there from the same options start from the same tree:
//   - README.md is the README template with its {Name}, {Description},
//     {OwnerName}, {CloneURL.HTTPS} and {CloneURL.SSH} variables expanded
//     (the description's CR and CRLF line ends made LF) and nothing added
//     (Gitea's Default template has no final newline, so neither has the file);
//   - .gitignore is, for each requested template in the order given, a line
//     "# ---> NAME", the template's text, and one newline;
//   - LICENSE is the licence text with its year and owner placeholders
//     filled line by line, every line ended by a newline.
func (s *Service) initialFiles(owner *user.User, in CreateInput) ([]ports.GitFile, error) {
	name := in.Readme
	if name == "" {
		name = "Default"
	}
	readme, err := s.templates.Readme(name)
	if err != nil {
		return nil, errs.AsInvalid(err, errs.ErrNotFound, "Readme")
	}
	description := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(in.Description)
	readme = strings.NewReplacer("{Name}", in.Name, "{Description}", description, "{OwnerName}", owner.Name,
		"{CloneURL.HTTPS}", s.settings.HTTPSCloneURL(owner.Name, in.Name),
		"{CloneURL.SSH}", s.settings.SSHCloneURL(owner.Name, in.Name)).Replace(readme)
	files := []ports.GitFile{{Path: "README.md", Content: []byte(readme)}}
	if in.License != "" {
		lic, err := s.templates.License(in.License)
		if err != nil {
			return nil, errs.AsInvalid(err, errs.ErrNotFound, "License")
		}
		files = append(files, ports.GitFile{Path: "LICENSE", Content: []byte(fillLicense(lic.Key, lic.Body, owner.Name, s.signature(owner).Email, s.clock.Now().Year()))})
	}
	if in.Gitignores != "" {
		var b strings.Builder
		for _, n := range strings.Split(in.Gitignores, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			text, err := s.templates.Gitignore(n)
			if err != nil {
				return nil, errs.AsInvalid(err, errs.ErrNotFound, "Gitignores")
			}
			b.WriteString("# ---> " + n + "\n" + text + "\n")
		}
		if b.Len() > 0 {
			files = append(files, ports.GitFile{Path: ".gitignore", Content: []byte(b.String())})
		}
	}
	return files, nil
}

// noticeTitles are the permissive licences whose text, as the licence source
// ships it, leaves the title and copyright notice out; the SPDX text (and so
// Gitea's LICENSE) starts with both.
var noticeTitles = map[string]string{
	"MIT": "MIT License", "BSD-3-Clause": "BSD 3-Clause License", "MIT-0": "MIT No Attribution",
}

// licenseHolders, licenseYears and licenseEmails are the placeholders of the
// licence texts that stand for the copyright holder, the year and the
// holder's address, as Gitea fills them; no other text is replaced, so
// words of the licence that merely look like placeholders stay.
var (
	licenseHolders = []string{"<name of author>", "<owner>", "[NAME]", "[name of copyright owner]",
		"[name of copyright holder]", "<COPYRIGHT HOLDERS>", "<copyright holders>", "<AUTHOR>",
		"<author's name or designee>",
		"[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]"}
	licenseYears  = []string{"<year>", "[YEAR]", "{YEAR}", "[yyyy]", "[Year]", "[year]"}
	licenseEmails = []string{"[EMAIL]"}
)

// fillLicense writes the holder (the owner's account name, as Gitea uses the
// repository's owner name), the owner's commit address (hidden addresses
// stay hidden) and the year into the licence's placeholders,
// line by line, ending every line with a newline. Trailing blank lines of
// the source text are dropped: a licence file ends with its last line.
func fillLicense(key, body, holder, email string, year int) string {
	if title, ok := noticeTitles[key]; ok && !strings.Contains(body, "Copyright") {
		body = title + "\n\nCopyright (c) <year> <copyright holders>\n\n" + body
	}
	body = strings.TrimRight(body, " \t\r\n")
	var pairs []string
	for _, p := range licenseHolders {
		pairs = append(pairs, p, holder)
	}
	for _, p := range licenseEmails {
		pairs = append(pairs, p, email)
	}
	for _, p := range licenseYears {
		pairs = append(pairs, p, strconv.Itoa(year))
	}
	fill := strings.NewReplacer(pairs...)
	var out strings.Builder
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 0, 64*1024), len(body)+1)
	for sc.Scan() {
		out.WriteString(fill.Replace(sc.Text()))
		out.WriteByte('\n')
	}
	return out.String()
}
