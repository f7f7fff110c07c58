package httpkit

import (
	"bytes"
	"io"
	"net"
	"strconv"
	"time"
)

// refusalWait bounds each step of a refusal: reading the request's head,
// writing the answer, and waiting for the client to close.
const refusalWait = 2 * time.Second

// tooManyConnectionsBody is what a refused client reads (git shows it).
const tooManyConnectionsBody = "too many connections from your address; try again when some have finished\n"

// RefuseTooManyConnections answers a connection over the per-address bound
// with 429 Too Many Requests and closes it. It reads the request's head
// first, so that the client sees the answer to the request it sent rather
// than a reply to nothing, and keeps every step short: a refused client
// costs a descriptor for a few seconds at most.
func RefuseTooManyConnections(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(refusalWait))
	var head []byte
	buf := make([]byte, 1024)
	for len(head) < 16<<10 && !bytes.Contains(head, []byte("\r\n\r\n")) {
		n, err := c.Read(buf)
		head = append(head, buf[:n]...)
		if err != nil {
			break
		}
	}
	_, _ = io.WriteString(c, "HTTP/1.1 429 Too Many Requests\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n"+
		"Retry-After: 1\r\n"+
		"Connection: close\r\n"+
		"Content-Length: "+strconv.Itoa(len(tooManyConnectionsBody))+"\r\n\r\n"+
		tooManyConnectionsBody)
	// Closing with unread input would reset the connection and could lose
	// the answer at the client: half-close, then let the client close.
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.SetReadDeadline(time.Now().Add(refusalWait))
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 256<<10))
}
