package redisstore

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// maxLine bounds a reply's header or simple line (+, -, :, …): 64 KiB.
const maxLine = 64 << 10

// BadReplyError is returned by the Redis client's reads when the peer sends
// bytes that are not RESP, or a reply past Options.MaxReply: the connection
// is dropped at the first bad byte, so a peer that is not Redis costs
// bounded time and memory (issue 22: a garbage peer drove a process to
// 8.8 GB). New fails with it when the handshake PING gets such a reply.
type BadReplyError struct {
	// Addr is the peer's address; Offset the byte's offset in the
	// connection's input.
	Addr   string
	Offset int64
	// Reason says what was wrong.
	Reason string
}

// Error names the peer, the byte's offset and what was wrong.
func (e *BadReplyError) Error() string {
	return fmt.Sprintf("redisstore: reply from %s is not RESP at byte %d: %s", e.Addr, e.Offset, e.Reason)
}

// replyGuard is a go-redis hook whose dial hook wraps every connection in a
// guardConn.
type replyGuard struct{ max int }

func (g replyGuard) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &guardConn{Conn: c, max: int64(g.max), addr: addr}, nil
	}
}

func (replyGuard) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (replyGuard) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// guardConn checks the framing of every reply read through it: each
// element starts with a RESP2 or RESP3 type byte, header lines end within
// maxLine bytes, a bulk length is at most max bytes and an aggregate's count
// at most max/16 elements (what go-redis allocates for it).
type guardConn struct {
	net.Conn
	max  int64
	addr string

	off int64
	// state: 0 expects a type byte, 1 reads a header line of kind typ, 2
	// skips skip bytes of a bulk payload and its CRLF.
	state int
	typ   byte
	line  []byte
	skip  int64
	bad   *BadReplyError
}

func (c *guardConn) Read(p []byte) (int, error) {
	if c.bad != nil {
		return 0, c.bad
	}
	n, err := c.Conn.Read(p)
	for i := 0; i < n; i++ {
		if c.check(p, &i) {
			return 0, c.bad
		}
	}
	c.off += int64(n)
	return n, err
}

// check advances the state machine over p[*i] (or a run of bulk bytes) and
// reports a violation.
func (c *guardConn) check(p []byte, i *int) bool {
	b := p[*i]
	switch c.state {
	case 0:
		switch b {
		case '+', '-', ':', '$', '*', '_', ',', '#', '!', '=', '(', '%', '~', '>', '|':
			c.state, c.typ, c.line = 1, b, c.line[:0]
			return false
		}
		return c.fail(*i, fmt.Sprintf("byte %q where a reply type was expected", b))
	case 1:
		if b != '\n' {
			if len(c.line) >= maxLine {
				return c.fail(*i, "header line longer than 64 KiB")
			}
			c.line = append(c.line, b)
			return false
		}
		if len(c.line) == 0 || c.line[len(c.line)-1] != '\r' {
			return c.fail(*i, "line not ended by CRLF")
		}
		return c.header(*i, c.line[:len(c.line)-1])
	default:
		run := min(int64(len(p)-*i), c.skip)
		c.skip -= run
		*i += int(run) - 1
		if c.skip == 0 {
			c.state = 0
		}
		return false
	}
}

// header checks a complete header line of type c.typ.
func (c *guardConn) header(i int, line []byte) bool {
	c.state = 0
	switch c.typ {
	case '$', '!', '=':
		n, err := strconv.ParseInt(string(line), 10, 64)
		switch {
		case err != nil || n < -1:
			return c.fail(i, fmt.Sprintf("bad length %q", line))
		case n > c.max:
			return c.fail(i, fmt.Sprintf("a %d-byte string, above Options.MaxReply (%d)", n, c.max))
		case n >= 0:
			c.state, c.skip = 2, n+2
		}
	case '*', '%', '~', '>', '|':
		n, err := strconv.ParseInt(string(line), 10, 64)
		switch {
		case err != nil || n < -1:
			return c.fail(i, fmt.Sprintf("bad count %q", line))
		case n > c.max/16:
			return c.fail(i, fmt.Sprintf("%d elements, above Options.MaxReply / 16 (%d)", n, c.max/16))
		}
	}
	return false
}

func (c *guardConn) fail(i int, reason string) bool {
	c.bad = &BadReplyError{Addr: c.addr, Offset: c.off + int64(i), Reason: reason}
	return true
}
