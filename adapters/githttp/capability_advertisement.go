package githttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/repository"
	lru "github.com/hashicorp/golang-lru/v2"
)

// Git's protocol-v2 capability advertisement (GET info/refs with
// Git-Protocol: version=2) depends on git's version and configuration, never
// on the repository's refs. Depot asks git upload-pack for it once per
// repository and configuration and keeps git's own bytes, together with the
// few settings that decide whether ls-refs can be answered without git
// (ls_refs.go). An entry is keyed by the repository's directory, the
// protocol value, and the size and modification time of every
// configuration file git reads (the repository's, the user's, the system's)
// and of the git executable: editing any of them, or upgrading git, makes
// the next request ask git again. Files that a configuration includes are
// not followed: a change there shows when the including file changes.

// v2CacheEntries bounds the repositories whose advertisement is kept; the
// least recently used goes first.
const v2CacheEntries = 2048

// v2OutputLimit bounds what git may write for the advertisement or the
// configuration it is asked for.
const v2OutputLimit = 64 << 10

// Client capabilities of protocol v2 that are no commands: the only keys
// besides command= an ls-refs request may carry, when git advertises them.
var v2ClientCapabilities = []string{"agent", "object-format", "server-option", "session-id"}

// v2Facts is what git answers and how it is configured for protocol v2 in
// one repository.
type v2Facts struct {
	// advertisement is git's answer to the advertisement request, whole.
	advertisement []byte
	// sessionID says the advertisement carries git's session id
	// (transfer.advertiseSID), which is new with every git run: such an
	// advertisement is never answered from the cache.
	sessionID bool
	// clientKeys are the capabilities a request may carry.
	clientKeys map[string]bool
	// objectFormat is the repository's hash ("sha1").
	objectFormat string
	// lsRefsCommand says git offers the ls-refs command.
	lsRefsCommand bool
	// fetchCommand says git offers the fetch command.
	fetchCommand bool
	// lsRefs says ls-refs may be answered in process: no hidden refs, no
	// other ref storage, a known lsrefs.unborn.
	lsRefs bool
	// unborn says the unborn argument of ls-refs is honoured (lsrefs.unborn
	// is unset, "advertise" or "allow").
	unborn bool
}

// fileStamp tells whether a file has changed: its size and modification
// time, the zero value for a file that is absent.
type fileStamp struct {
	present bool
	size    int64
	mtime   int64
	mode    os.FileMode
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{present: true, size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}

// maxSiteFiles is the number of files outside repositories the key watches.
const maxSiteFiles = 5

// v2Key names one cached advertisement. It holds the repository's
// directory: nothing a client names is ever answered from another
// repository's entry.
type v2Key struct {
	dir, protocol string
	wiki          bool
	config        fileStamp
	site          [maxSiteFiles]fileStamp
}

// v2Cache keeps the facts of recently served repositories, the least
// recently served dropped first past v2CacheEntries (golang-lru).
type v2Cache struct {
	// siteFiles are the git executable and the configuration files outside
	// repositories git reads.
	siteFiles []string
	entries   *lru.Cache[v2Key, *v2Facts]
}

func newV2Cache(siteFiles []string) *v2Cache {
	entries, err := lru.New[v2Key, *v2Facts](v2CacheEntries)
	if err != nil {
		panic(err) // only for a size below one
	}
	return &v2Cache{siteFiles: siteFiles, entries: entries}
}

// key stats the files an answer for inv depends on. It is taken before git
// is asked, so that a change racing the question makes a later key differ.
func (c *v2Cache) key(inv Invocation) v2Key {
	k := v2Key{dir: inv.Dir, protocol: inv.Protocol, wiki: inv.Wiki, config: stampOf(filepath.Join(inv.Dir, "config"))}
	for i, p := range c.siteFiles {
		k.site[i] = stampOf(p)
	}
	return k
}

func (c *v2Cache) get(k v2Key) *v2Facts {
	f, _ := c.entries.Get(k)
	return f
}

func (c *v2Cache) put(k v2Key, f *v2Facts) { c.entries.Add(k, f) }

// protocolV2 returns the protocol-v2 facts of inv's repository, asking git
// when they are not known for its present configuration; nil when git
// could not tell (the request is then served by git as before).
func (h *Handler) protocolV2(ctx context.Context, inv Invocation) *v2Facts {
	inv = Invocation{Service: repository.ServiceUploadPack, Dir: inv.Dir, AdvertiseRefs: true,
		Protocol: inv.Protocol, Wiki: inv.Wiki}
	k := h.v2.key(inv)
	if f := h.v2.get(k); f != nil {
		return f
	}
	ctx, release := h.runner.Bound(ctx)
	defer release()
	f, err := h.runner.protocolV2Facts(ctx, inv)
	if err != nil {
		h.log.Debug("git protocol v2 facts", "dir", inv.Dir, "err", err)
		return nil
	}
	h.v2.put(k, f)
	return f
}

// siteFiles lists what git reads outside a repository that could change
// its advertisement: the executable itself and the global and system
// configuration files.
func (r *Runner) siteFiles() []string {
	files := []string{r.git, "/etc/gitconfig"}
	if prefix := filepath.Dir(filepath.Dir(r.git)); prefix != "/usr" && prefix != "/" {
		files = append(files, filepath.Join(prefix, "etc", "gitconfig"))
	}
	var home, xdg string
	for _, kv := range r.baseEnv {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		} else if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			xdg = v
		}
	}
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files[:min(len(files), maxSiteFiles)]
}

// v2ConfigKeys matches the settings that decide whether ls-refs can be
// answered without git (git config --get-regexp, extended syntax).
const v2ConfigKeys = `^(transfer|uploadpack)\.hiderefs$|^lsrefs\.unborn$|^extensions\.refstorage$`

// protocolV2Facts asks git upload-pack for its protocol-v2 advertisement in
// inv's repository, and git config for the settings ls-refs depends on.
func (r *Runner) protocolV2Facts(ctx context.Context, inv Invocation) (*v2Facts, error) {
	cmd, err := r.Command(ctx, inv)
	if err != nil {
		return nil, err
	}
	adv, err := runCaptured(cmd)
	if err != nil {
		return nil, fmt.Errorf("advertisement: %w", err)
	}
	f, err := parseV2Advertisement(adv)
	if err != nil {
		return nil, err
	}
	args := append(r.configArgs(inv), "--git-dir="+inv.Dir, "config", "-z", "--get-regexp", v2ConfigKeys)
	cmd = exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = inv.Dir
	cmd.Env = r.baseEnv
	cmd.WaitDelay = waitDelay
	dieWithServer(cmd)
	out, err := runCaptured(cmd)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && len(out) == 0 {
		err = nil // none of the keys is set
	}
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	f.lsRefs, f.unborn = lsRefsConfig(out)
	if f.objectFormat != "sha1" || !f.lsRefsCommand {
		f.lsRefs = false
	}
	if _, err := os.Lstat(filepath.Join(inv.Dir, "reftable")); err == nil {
		f.lsRefs = false
	}
	return f, nil
}

// runCaptured runs cmd and returns its output, at most v2OutputLimit bytes.
func runCaptured(cmd *exec.Cmd) ([]byte, error) {
	out := &limitedBuffer{max: v2OutputLimit}
	cmd.Stdout = out
	stderr := &tailBuffer{max: 1024}
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%w: %s", err, firstLine(stderr.String()))
	}
	if out.over {
		return nil, errors.New("git's output is too long")
	}
	return out.Bytes(), nil
}

// limitedBuffer keeps the first max bytes written and notes any more.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// lsRefsConfig reads git config -z output: whether ls-refs can be answered
// in process, and whether its unborn argument is honoured. Any hidden
// reference, another ref storage, or an lsrefs.unborn git would refuse
// leaves ls-refs to git.
func lsRefsConfig(out []byte) (inProcess, unborn bool) {
	inProcess, unborn = true, true
	for _, entry := range strings.Split(string(out), "\x00") {
		if entry == "" {
			continue
		}
		key, value, hasValue := strings.Cut(entry, "\n")
		if key != "lsrefs.unborn" {
			return false, false
		}
		// The last value counts, as for git.
		switch {
		case !hasValue:
			inProcess = false
		case value == "advertise" || value == "allow":
			unborn = true
		case value == "ignore":
			unborn = false
		default:
			inProcess = false
		}
	}
	return inProcess, unborn
}

// errNotV2 says git did not answer with a protocol-v2 advertisement.
var errNotV2 = errors.New("not a protocol-v2 advertisement")

// parseV2Advertisement checks git's answer and notes the capabilities a
// request may carry and the object format.
func parseV2Advertisement(adv []byte) (*v2Facts, error) {
	p := &pktReader{r: bytes.NewReader(adv), max: v2OutputLimit}
	kind, line, ok := p.next()
	if !ok || kind != pktData || line != "version 2" {
		return nil, errNotV2
	}
	f := &v2Facts{advertisement: adv, clientKeys: map[string]bool{}}
	for {
		kind, line, ok := p.next()
		if !ok || kind == pktDelim {
			return nil, errNotV2
		}
		if kind == pktFlush {
			break
		}
		key, value, _ := strings.Cut(line, "=")
		if slices.Contains(v2ClientCapabilities, key) {
			f.clientKeys[key] = true
		}
		switch key {
		case "object-format":
			f.objectFormat = value
		case "ls-refs":
			f.lsRefsCommand = true
		case "fetch":
			f.fetchCommand = true
		case "session-id":
			f.sessionID = true
		}
	}
	if len(p.consumed) != len(adv) {
		return nil, errNotV2
	}
	if f.objectFormat == "" {
		// Git leaves the capability out only in old versions; SHA-1 then.
		f.objectFormat = "sha1"
	}
	return f, nil
}
