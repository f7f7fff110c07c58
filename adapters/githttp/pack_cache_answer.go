package githttp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/ports"
)

// Which fetch answers the pack cache (pack_cache.go) keeps, and why a kept
// one is still right. A fetch request that has no haves and ends the
// negotiation asks for whole histories: git's answer is the objects
// reachable from the wants, and, with include-tag, the annotated tags of
// the repository pointing into them. It is kept only when every want is
// the tip of one of the repository's refs (or HEAD), as a clone's are, so
// the answer is that of the refs themselves, and the key holds:
//   - the repository (its directory, id and wiki flag) and the protocol
//     value: nothing is ever answered from another repository's entry;
//   - every ref's name and object, HEAD's too: a push, a new tag, a
//     deleted branch make the next request miss, and an object that no ref
//     reaches any more is never sent from an old answer;
//   - the stamps of git's configuration files and executable (as the
//     capability advertisement's key, capability_advertisement.go), so that
//     a change of configuration or of git is asked of git again;
//   - the request itself: its flags (progress, thin-pack, include-tag,
//     ofs-delta) and capabilities, sorted, with the wants sorted; only the
//     client's agent and session id are left out, as git's answer does not
//     depend on them.
// The answer is kept only when git ended well and the client took all of
// it, so an answer from the cache is the bytes git wrote for an identical
// request over the same refs. Hidden refs (which the listing here does not
// know to hide) turn the cache off for the repository, as they turn off
// the in-process ls-refs.

// errClientWrite wraps a failed write of an answer to the client.
var errClientWrite = errors.New("writing the answer to the client")

// packCacheKey is the key of the answer to req in inv's repository, whose
// HEAD and refs are given, with configuration stamps config; ok is false
// when the answer is not one to keep.
func packCacheKey(inv Invocation, config v2Key, req *fetchRequest, head *ports.GitWireRef,
	refs []ports.GitWireRef) (key string, ok bool) {
	if req.haves > 0 || len(req.wants) == 0 {
		return "", false
	}
	tips := make(map[string]bool, len(refs)+1)
	h := sha256.New()
	fmt.Fprintf(h, "depot pack answer 1\x00%s\x00%d\x00%t\x00%s\x00%+v\x00", inv.Dir, inv.RepoID, inv.Wiki,
		inv.Protocol, config)
	if head != nil {
		tips[head.ObjectID] = true
		writeKeyRef(h, head)
	}
	for i := range refs {
		tips[refs[i].ObjectID] = true
		writeKeyRef(h, &refs[i])
	}
	h.Write([]byte{0})
	var caps []string
	for _, c := range req.capabilities {
		if k, _, _ := strings.Cut(c, "="); k != "agent" && k != "session-id" {
			caps = append(caps, c)
		}
	}
	wants := slices.Clone(req.wants)
	slices.Sort(wants)
	wants = slices.Compact(wants)
	for _, w := range wants {
		if !tips[w] {
			return "", false
		}
	}
	for _, part := range [][]string{caps, slices.Clone(req.flags), wants} {
		slices.Sort(part)
		for _, s := range part {
			h.Write([]byte(s))
			h.Write([]byte{'\n'})
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// writeKeyRef adds one ref to a key.
func writeKeyRef(h hash.Hash, r *ports.GitWireRef) {
	fmt.Fprintf(h, "%s %s %s\n", r.Name, r.ObjectID, r.SymrefTarget)
}

// packKey is the key of the answer to req, read from the repository's refs
// now; ok is false when the cache is off or the answer is not one to keep.
func (h *Handler) packKey(ctx context.Context, s *transport.Session, inv Invocation, f *v2Facts,
	req *fetchRequest) (string, bool) {
	if h.packs == nil || !f.lsRefs || req.haves > 0 {
		return "", false
	}
	// The stamps are taken before the refs are read: a change racing the
	// reading makes a later key differ.
	config := h.v2.key(Invocation{Dir: inv.Dir, Protocol: inv.Protocol, Wiki: inv.Wiki})
	head, refs, err := h.refs.WireRefs(ctx, s.Path, nil, false)
	if err != nil {
		return "", false
	}
	return packCacheKey(inv, config, req, head, refs)
}

// answerFromFile sends a kept answer on the client's connection.
func (h *Handler) answerFromFile(w http.ResponseWriter, r *http.Request, inv Invocation, f *os.File, size int64) {
	defer f.Close()
	defer h.runner.Detached()()
	conn, out, sent, ok := h.takeConnection(w, inv)
	if !ok {
		return
	}
	defer conn.Close()
	before := sent()
	var err error
	if out != nil {
		err = sendFile(out, f, size)
		_ = out.Close()
	} else {
		_, err = io.Copy(conn, io.NewSectionReader(f, 0, size))
	}
	httpkit.ReportWritten(w, sent()-before)
	if err != nil {
		h.log.Debug("git client went away", "service", string(inv.Service), "path", r.URL.Path, "err", err)
	}
}

// runKept runs git with its answer going through a pipe, which this
// process copies to the client's socket out and into fill; fill is kept
// when git ended well and the client took every byte. A client that stops
// taking the answer closes the pipe, and git ends on it.
func runKept(cmd *exec.Cmd, out *os.File, fill *PackFill) error {
	defer out.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		fill.Abort()
		return runOnConnection(cmd, nil, out)
	}
	defer pr.Close()
	growPipe(pr)
	cmd.Stdout = pw
	err = cmd.Start()
	_ = pw.Close() // git holds the write end now
	if err != nil {
		fill.Abort()
		return err
	}
	copyErr := copyKept(out, pr, fill)
	if copyErr != nil {
		_ = pr.Close()
	}
	err = cmd.Wait()
	if err == nil && copyErr == nil {
		fill.Commit()
		return nil
	}
	fill.Abort()
	if copyErr != nil {
		return fmt.Errorf("%w: %w", errClientWrite, copyErr)
	}
	return err
}

// copyKept copies git's answer from its pipe to the client and to fill,
// until git closes the pipe; an error is the client's. It borrows the
// streamed answers' buffers.
func copyKept(out io.Writer, pipe io.Reader, fill *PackFill) error {
	b := streamBuffers.Get().(*[streamBufferSize]byte)
	defer streamBuffers.Put(b)
	buf := b[:]
	for {
		n, err := pipe.Read(buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				return werr
			}
			_, _ = fill.Write(buf[:n])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // the pipe only fails as git ends; Wait says how
		}
	}
}

// runOnConnection runs git writing its answer to the client's socket out
// itself, or to conn (copied by exec) when it has no descriptor.
func runOnConnection(cmd *exec.Cmd, conn io.Writer, out *os.File) error {
	if out != nil {
		cmd.Stdout = out
	} else {
		cmd.Stdout = conn
	}
	err := cmd.Start()
	if out != nil {
		// Only git holds the socket for writing now; the connection closes
		// once both have let it go.
		_ = out.Close()
	}
	if err == nil {
		err = cmd.Wait()
	}
	return err
}
