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
		files = append(files, ports.GitFile{Path: "LICENSE", Content: []byte(fillLicense(lic.Key, lic.Body, owner.Name, s.signature(owner).Email, in.Name, s.clock.Now().Year()))})
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

// licenseHolders, licenseYears, licenseEmails and licenseRepos are the
// placeholders of the licence texts that stand for the copyright holder,
// the year, the holder's address and the program, as Gitea fills them; no
// other text is replaced, so words of the licence that merely look like
// placeholders stay.
var (
	licenseHolders = []string{"<name of author>", "<owner>", "[NAME]", "[name of copyright owner]",
		"[name of copyright holder]", "<COPYRIGHT HOLDERS>", "<copyright holders>", "<AUTHOR>",
		"<author's name or designee>",
		"[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]"}
	licenseYears  = []string{"<year>", "[YEAR]", "{YEAR}", "[yyyy]", "[Year]", "[year]"}
	licenseEmails = []string{"[EMAIL]"}
	licenseRepos  = []string{"<program>", "<one line to give the program's name and a brief idea of what it does.>"}
)

// licenseNoticeOnly are the licences whose placeholders are bare words
// ("YEAR", "AUTHOR") that the rest of the text also uses: only the notice
// line is filled, and only with those words, as Gitea does.
var licenseNoticeOnly = map[string]struct {
	notice              string
	holder, email, year string
}{
	"0BSD": {notice: "Copyright (C) YEAR by AUTHOR EMAIL", holder: "AUTHOR", email: "EMAIL", year: "YEAR"},
}

// fillLicense writes the holder (the owner's account name, as Gitea uses the
// repository's owner name), the owner's commit address (hidden addresses
// stay hidden), the repository's name and the year into the licence's
// placeholders, line by line, ending every line with a newline. Trailing
// blank lines of the source text are dropped: a licence file ends with its
// last line.
func fillLicense(key, body, holder, email, repo string, year int) string {
	body = strings.TrimRight(body, " \t\r\n")
	if only, ok := licenseNoticeOnly[key]; ok {
		fill := strings.NewReplacer(only.holder, holder, only.email, email, only.year, strconv.Itoa(year))
		return eachLine(body, func(line string) string {
			if strings.Contains(line, only.notice) {
				return fill.Replace(line)
			}
			return line
		})
	}
	var pairs []string
	for _, p := range licenseHolders {
		pairs = append(pairs, p, holder)
	}
	for _, p := range licenseEmails {
		pairs = append(pairs, p, email)
	}
	for _, p := range licenseRepos {
		pairs = append(pairs, p, repo)
	}
	for _, p := range licenseYears {
		pairs = append(pairs, p, strconv.Itoa(year))
	}
	return eachLine(body, strings.NewReplacer(pairs...).Replace)
}

// eachLine rewrites body line by line, ending every line with a newline.
func eachLine(body string, fill func(string) string) string {
	var out strings.Builder
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 0, 64*1024), len(body)+1)
	for sc.Scan() {
		out.WriteString(fill(sc.Text()))
		out.WriteByte('\n')
	}
	return out.String()
}
