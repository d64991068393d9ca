// Package redisstore shares throttle windows and a fleet retry budget between
// processes through Redis, so that a fleet of clients behaves like one
// (retry-behavior.md §5, §8; issues 13 and 22). Generated code never imports
// it: a user opts in with one option line,
//
//	store, err := redisstore.New(redis.NewClient(&redis.Options{Addr: "redis:6379", MaxRetries: -1, ContextTimeoutEnabled: true}),
//		redisstore.Options{FleetCapacity: 28 * 100}) // one lease per process
//	defer store.Close()
//	client, err := dynamodb.New(endpoint, func(o *dynamodb.Options) {
//		o.ThrottleIdentity = accessKeyID // required to share windows
//		store.Share(&o.Options)
//	})
//
// Any redis.UniversalClient works: a single server, a Cluster
// (redis.NewClusterClient) or Sentinel (redis.NewFailoverClient). Every key
// of one scope carries one hash tag after Options.Prefix — the windows set
// PREFIX{windows}, a budget PREFIX{budget:…} and its leases — so every
// script touches one hash slot (no CROSSSLOT), and a resync reads one key
// (no keyspace SCAN).
//
// It uses github.com/redis/go-redis/v9 with pub/sub rather than
// github.com/redis/rueidis's server-assisted client-side caching: a cached
// read still costs a round trip the first time each key is read and after
// every invalidation, and the cache is dropped whenever the connection is,
// exactly when a local fallback is needed; a mirror fed by pub/sub is read
// without any round trip and is itself the fallback.
//
// # Throttle windows
//
// A window learned by one process (its absolute end, dimension, throttle
// identity and operation) is written to Redis as one member of a sorted set
// scored by its end (the set expires with its last window), and announced
// on a pub/sub channel. Every Store keeps a mirror of the fleet's windows in
// memory, fed by that channel and by a resync whenever it (re)subscribes and
// every [Options.ResyncInterval] (the [MaxWindows] windows that end last);
// the client reads only the mirror, so asking "is this call blocked?" never
// costs a Redis round trip. Propagation delay: a window reaches every
// connected Store one Redis round trip plus one pub/sub delivery after the
// response that reported it (median 1.2 ms on loopback on a busy 2-core
// machine, TestWindowPropagationDelay); a Store that missed the message
// (disconnected, or its subscription broke) catches up at its next resync,
// within ResyncInterval (default 2 s) of Redis being reachable again.
// Windows are keyed by the throttle identity ([runtime.Options.ThrottleIdentity]),
// which a client that shares windows must set, scoped by the runtime to the
// client's service and endpoint host: one Store shares the windows of many
// services without one blocking another.
//
// Host clocks are not trusted: a window's end is computed by Redis, as its
// own TIME plus the time left that the server reported, and each Store maps
// Redis time to its monotonic clock from the best of three TIME samples
// taken at every resync on the node that holds the windows, placing Redis's
// reading at the moment the reply arrived: a window is never honoured
// early, and at most one TIME round trip late.
//
// # Fleet retry budget
//
// One token bucket per service and endpoint host (a Redis key; the client
// is given its own by runtime.NewClient through [Store.Scope]), with a
// capacity the user sets ([Options.FleetCapacity], required), and the retry
// quota's costs and refills: 14 tokens a transient retry, 5 a throttling
// retry, a successful retry refunds its cost, a first-attempt success adds
// 1. Every retrying mode pays it: in standard and adaptive modes on top of
// each client's own retry quota (a retry needs both), in legacy and aliyun
// modes, which have no retry quota, alone. A process leases tokens in
// batches ([Options.LeaseSize], default 28: two transient retries), so a
// retry costs no Redis round trip while its lease lasts; leased tokens count
// as spent, so size FleetCapacity at least LeaseSize per process that may
// hold a lease at once. Refunds and first-attempt increments first top the
// lease back up to LeaseSize, so that retries that succeed keep a process
// supplied without any round trip; the rest is added up locally and written
// in one batch at most once per [Options.FlushInterval], and not at all
// while the bucket was last seen full (they would be clamped away). A lease
// ends after [Options.LeaseTTL]: a live process then gives its unused tokens
// back; one killed with kill -9 cannot, so its lease key simply expires
// (after twice the TTL) and those tokens stay spent (at most one lease per
// process), to come back through refills like any spent token.
//
// # Fleet-wide adaptive rate
//
// In adaptive mode, [Store.Share] also gives every client one send rate per
// service and endpoint host for the whole fleet ([Store.Limiter],
// engine.SharedRateLimiters): one CUBIC rate whose state (last_max_rate
// and the last throttle's time) lives in Redis; each process fills its own
// token bucket at rate / live processes, computed locally, so a send makes
// no round trip. Throttles are reported off the call path, at most one
// decrease per 500 ms for the fleet; live processes heartbeat every
// ResyncInterval (fleetrate.go). 8 processes × 4 clients at 1.5× a 200/s
// limit: 205–207 req/s, 1.4 % throttled; one process killed: the same
// (TestFleetAdaptive).
//
// # Slow links and faults
//
// Redis slow or down never fails or stalls a call. The only Redis operation
// on a call's path is taking a new lease, which a retry waits for at most
// [Options.Timeout] (default 5 ms). A lease slower than that (Redis in
// another zone, 10–50 ms away) is no fault: the retry goes on credit, as
// may others up to one lease (LeaseSize) while the request is under way,
// and the credit is settled against the lease when it comes; beyond that,
// retries are refused until it answers. So what a process spends past the
// fleet budget is at most one lease: a bucket that refuses a lease after
// retries went on credit records them as a debt (the balance goes below 0,
// repaid by refills), and no retry goes on credit again until a lease is
// granted.
//
// Every Redis operation is bounded by [Options.StallTimeout] (default 1 s;
// on the socket when the client has ContextTimeoutEnabled, otherwise by the
// client's ReadTimeout): a Redis that answers nothing for that long, or
// cannot be reached, puts the Store on local state: its own mirror of
// windows (every window it learned or heard of is still honoured), and for
// the budget each client's own retry quota alone, with what it spends
// written off against the fleet budget once Redis is back. A stall is
// noticed within StallTimeout of the first lease request it delays, and
// otherwise at the next resync (ResyncInterval + StallTimeout). The fault
// is reported in runtime.AttemptInfo.StoreFault and logged through
// [Options.Logger] when it starts and ends. A background probe (every
// FlushInterval, bounded by StallTimeout, so a distant Redis is found
// again) resumes sharing as soon as Redis answers: the Store resubscribes,
// resyncs its windows and writes what it held back (windows learned
// meanwhile, refills, what it spent on credit). A Redis restart that loses
// its data loses no correctness, only sharing: every process keeps
// honouring the windows in its mirror, windows learned from then on are
// shared again, returns of leases taken before the restart are refused
// (their keys are gone), and the fleet budget starts full, like a new
// fleet's.
//
// A peer that is not Redis is found at [New]: a PING that gets anything but
// PONG fails it. Every reply is checked as it is read (a [BadReplyError]
// past the first byte that is not RESP, or a reply above
// [Options.MaxReply]), so garbage costs bounded memory and drops the
// connection at once.
//
// Redis load: besides the writes above, each Store resyncs (three
// single-key scripts) every ResyncInterval and writes refills at most once
// per FlushInterval; a successful call with no active window sends nothing.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Defaults of [Options].
const (
	// DefaultPrefix starts every key and the pub/sub channel.
	DefaultPrefix = "retrygen:"
	// DefaultLeaseSize is two transient retries' worth of tokens: 28.
	DefaultLeaseSize = 2 * engine.RetryCostTransient
	// DefaultLeaseTTL is how long a lease lasts: 10 s.
	DefaultLeaseTTL = 10 * time.Second
	// DefaultTimeout bounds the Redis round trip a retry may wait for: 5 ms.
	DefaultTimeout = 5 * time.Millisecond
	// DefaultFlushInterval is the period of batched refills and of the
	// probe while Redis is unreachable: 100 ms.
	DefaultFlushInterval = 100 * time.Millisecond
	// DefaultStallTimeout bounds every Redis operation (Options.StallTimeout): 1 s.
	DefaultStallTimeout = time.Second
	// DefaultMaxReply bounds one reply from Redis (Options.MaxReply): 8 MiB.
	DefaultMaxReply = 8 << 20
	// MaxWindows is the most windows one resync reads: the 10,000 that end
	// last (more arrive by pub/sub as they are learned).
	MaxWindows = 10000
	// DefaultResyncInterval is the period of full window resyncs: 2 s.
	DefaultResyncInterval = 2 * time.Second
	// DefaultMaxWindow caps how long a shared window lasts: 10 min, so one
	// bogus header cannot block a fleet for longer (retry-behavior.md §8).
	DefaultMaxWindow = 10 * time.Minute
	// bucketIdleTTL is how long the budget's key outlives its last write:
	// a fleet idle this long starts again with a full budget.
	bucketIdleTTL = time.Hour
)

// backgroundTimeout is the StallTimeout of Options that leave it 0:
// DefaultStallTimeout. A variable only so that the tests, which assert that
// a store on a healthy Redis never faults, can lengthen it (TestMain) on a
// loaded machine; nothing else changes it.
var backgroundTimeout = DefaultStallTimeout

// Options configure a [Store]. Zero values mean the defaults above, except
// FleetCapacity, which is required.
type Options struct {
	// FleetCapacity is the fleet retry budget's initial and maximum balance
	// in tokens. Required: New fails when it is not positive.
	FleetCapacity int
	// LeaseSize is how many tokens a process takes from the fleet budget at
	// once; 0 means DefaultLeaseSize (28).
	LeaseSize int
	// LeaseTTL is how long a lease lasts; 0 means DefaultLeaseTTL (10 s).
	LeaseTTL time.Duration
	// Timeout bounds how long a retry waits for the one Redis round trip a
	// call may make (a new lease); 0 means DefaultTimeout (5 ms). A lease
	// slower than that is no fault: the retry goes on credit (up to one
	// lease per process, see [Store]).
	Timeout time.Duration
	// StallTimeout bounds every Redis operation: a lease request, a flush,
	// a resync, the probe while faulted, and the handshake at New. Past it
	// the store faults and uses local state; 0 means DefaultStallTimeout
	// (1 s). It takes effect on the socket only when the Redis client has
	// ContextTimeoutEnabled (as the README's example sets); otherwise the
	// client's own ReadTimeout (go-redis: 3 s) bounds each read.
	StallTimeout time.Duration
	// MaxReply bounds one reply from Redis, in bytes (a bulk string's
	// length, an array's element count, a line); 0 means DefaultMaxReply
	// (8 MiB). New installs a dial hook on the Redis client that checks
	// every reply's framing as it is read, so a peer that is not Redis,
	// or sends garbage, is cut off at the first bad byte instead of
	// driving allocations: give the Store a Redis client of its own.
	MaxReply int
	// FlushInterval is how often refills are written and, while Redis is
	// unreachable, how often it is probed; 0 means DefaultFlushInterval.
	FlushInterval time.Duration
	// ResyncInterval is how often the window mirror is rebuilt from Redis;
	// 0 means DefaultResyncInterval (2 s).
	ResyncInterval time.Duration
	// MaxWindow caps a shared window's length; 0 means DefaultMaxWindow.
	MaxWindow time.Duration
	// Prefix starts every key and the channel; "" means DefaultPrefix.
	// Fleets that must not share state use different prefixes. It must not
	// contain '{' or '}': the Store adds hash tags after it, so that the
	// keys of one scope share a Redis Cluster hash slot.
	Prefix string
	// Logger receives a Warn record when Redis becomes unreachable and an
	// Info record when sharing resumes; nil means slog.Default().
	Logger *slog.Logger
}

// Store shares throttle windows (a engine.ThrottleWindowStore) and a fleet
// retry budget (a engine.RetryBudget, one bucket per service and endpoint
// host: engine.ScopedRetryBudget) between processes through Redis. It is
// safe for concurrent use. Create one per process with [New], hand it to
// every client with [Store.Share], and [Store.Close] it at exit.
type Store struct {
	rdb  redis.UniversalClient
	opts Options
	log  *slog.Logger

	// mirror holds every window this process knows, in local time.
	mirror engine.WindowStore
	// fault is the error that made the store fall back to local state, or
	// nil while it shares.
	fault atomic.Pointer[error]

	wmu sync.Mutex
	// unwritten are windows learned here and not yet written to Redis.
	unwritten map[windowKey]unwrittenWindow
	// ref maps Redis time to local time.
	ref clockRef
	// resyncs counts the completed resyncs (tests wait for the first).
	resyncs atomic.Int64

	// budget is the bucket of FleetRetryBudget (no scope); scoped holds
	// the buckets Scope returned, by key.
	budget  budget
	bmu     sync.Mutex
	scoped  map[string]*budget
	rates   map[string]*rateScope
	wake    chan struct{}
	stop    chan struct{}
	wg      sync.WaitGroup
	psMu    sync.Mutex
	ps      *redis.PubSub
	closed  atomic.Bool
	started time.Time
	// id names this Store's leases and heartbeats (newProcessID).
	id string
}

// windowKey identifies one shared window: operation is "" for the User
// dimension.
type windowKey struct {
	dimension, identity, operation string
}

// unwrittenWindow is a window learned here: it ends left after the local
// time at.
type unwrittenWindow struct {
	left time.Duration
	at   time.Time
	// length and limit are the window's Time and Limit (0 if unknown),
	// announced with it so that every process spreads releases alike.
	length time.Duration
	limit  int64
}

// New returns a Store over rdb and starts its background goroutines (stop
// them with Close). It installs a dial hook on rdb that bounds every reply
// (Options.MaxReply) and checks its framing, then sends one PING, bounded by
// Options.StallTimeout: a peer that answers anything but PONG (not Redis,
// or garbage) fails New with an error naming it. A Redis that cannot be
// reached yet is no error: the store starts on local state and shares as
// soon as Redis answers. New also fails when opts.FleetCapacity is not
// positive or opts.Prefix holds a brace.
func New(rdb redis.UniversalClient, opts Options) (*Store, error) {
	if rdb == nil {
		return nil, errors.New("redisstore.New: nil Redis client")
	}
	if opts.FleetCapacity <= 0 {
		return nil, fmt.Errorf("redisstore.New: Options.FleetCapacity is %d: the fleet retry budget's capacity in tokens is required (at least Options.LeaseSize, 28, per process that may hold a lease at once: 28,000 for 1,000 processes)", opts.FleetCapacity)
	}
	if strings.ContainsAny(opts.Prefix, "{}") {
		return nil, fmt.Errorf("redisstore.New: Options.Prefix %q holds a brace: the Store adds Redis Cluster hash tags after the prefix", opts.Prefix)
	}
	if opts.LeaseSize <= 0 {
		opts.LeaseSize = DefaultLeaseSize
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = DefaultLeaseTTL
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.StallTimeout <= 0 {
		opts.StallTimeout = backgroundTimeout
	}
	if opts.MaxReply <= 0 {
		opts.MaxReply = DefaultMaxReply
	}
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = DefaultFlushInterval
	}
	if opts.ResyncInterval <= 0 {
		opts.ResyncInterval = DefaultResyncInterval
	}
	if opts.MaxWindow <= 0 {
		opts.MaxWindow = DefaultMaxWindow
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	s := &Store{
		rdb: rdb, opts: opts, log: opts.Logger,
		unwritten: make(map[windowKey]unwrittenWindow),
		scoped:    make(map[string]*budget),
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		started:   time.Now(),
		id:        newProcessID(),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.budget.s, s.budget.key = s, opts.Prefix+"{budget}"
	rdb.AddHook(replyGuard{max: opts.MaxReply})
	if err := s.handshake(); err != nil {
		return nil, err
	}
	s.wg.Add(2)
	go s.subscribe()
	go s.background()
	return s, nil
}

// handshake sends one PING bounded by StallTimeout. A wrong answer, or a
// reply that is not RESP, is an error; no answer (refused, timed out) is a
// fault the store starts in.
func (s *Store) handshake() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.StallTimeout)
	defer cancel()
	pong, err := s.rdb.Ping(ctx).Result()
	var ge *BadReplyError
	switch {
	case errors.As(err, &ge):
		return fmt.Errorf("redisstore.New: the Redis server does not speak RESP: %w", err)
	case err == nil && pong != "PONG":
		return fmt.Errorf("redisstore.New: the Redis server answered PING with %q, not PONG", pong)
	case err != nil && isProtocolReply(err):
		return fmt.Errorf("redisstore.New: PING: %w", err)
	case err != nil:
		s.setFault(err)
	}
	return nil
}

// isProtocolReply reports whether err is an error reply from a server that
// speaks RESP (NOAUTH, WRONGPASS, …): a configuration error, not a fault.
func isProtocolReply(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, context.DeadlineExceeded)
}

// Share makes the client whose options o points to share this store's
// throttle windows (Options.Windows) and fleet retry budget
// (Options.FleetRetryBudget, scoped by runtime.NewClient to the client's
// service and endpoint host). Use it in a generated client's option
// function, after setting the throttle identity, which sharing windows
// needs (runtime.NewClient fails without it):
//
//	func(o *dynamodb.Options) { o.ThrottleIdentity = accessKeyID; store.Share(&o.Options) }
func (s *Store) Share(o *runtime.Options) {
	o.Windows, o.FleetRetryBudget, o.RateLimiters = s, scopedBudget{s}, s
}

// scopedBudget is the Store's engine.ScopedRetryBudget: unscoped, it is
// the store's default bucket.
type scopedBudget struct{ s *Store }

var _ engine.ScopedRetryBudget = scopedBudget{}

// Acquire is the default bucket's (budget.Acquire).
func (b scopedBudget) Acquire(cost int) (bool, int) { return b.s.budget.Acquire(cost) }

// Release is the default bucket's (budget.Release).
func (b scopedBudget) Release(n int) { b.s.budget.Release(n) }

// StoreFault is the store's.
func (b scopedBudget) StoreFault() error { return b.s.StoreFault() }

// Scope returns the bucket of service at endpointHost (Store.Scope).
func (b scopedBudget) Scope(service, endpointHost string) engine.RetryBudget {
	return b.s.Scope(service, endpointHost)
}

// Scope returns the fleet retry budget of service at endpointHost: its own
// bucket, keyed PREFIX{budget:LEN:SERVICE:HOST} (its leases extend the key,
// in the same hash slot), so that one sick service or region spends only
// its own budget. Each bucket has the capacity Options.FleetCapacity.
func (s *Store) Scope(service, endpointHost string) engine.RetryBudget {
	key := s.opts.Prefix + "{budget:" + strconv.Itoa(len(service)) + ":" + service + ":" + endpointHost + "}"
	s.bmu.Lock()
	defer s.bmu.Unlock()
	b, ok := s.scoped[key]
	if !ok {
		b = &budget{s: s, key: key}
		s.scoped[key] = b
	}
	return b
}

// budgets returns the default bucket and every scoped one.
func (s *Store) budgets() []*budget {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	all := make([]*budget, 0, 1+len(s.scoped))
	all = append(all, &s.budget)
	for _, b := range s.scoped {
		all = append(all, b)
	}
	return all
}

// FleetRetryBudget returns the fleet retry budget's default bucket (no
// scope), for Options.FleetRetryBudget.
func (s *Store) FleetRetryBudget() engine.RetryBudget { return &s.budget }

// StoreFault returns the error that made the store fall back to local
// state, or nil while it shares (engine.StoreFaultReporter).
func (s *Store) StoreFault() error {
	if p := s.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// Close stops the background goroutines and waits for lease requests under
// way, then gives back the unused tokens of the current leases and writes
// pending refills (each bounded by Options.StallTimeout).
// The store keeps working on local state after Close. It returns nil; the
// Redis client is the caller's to close.
func (s *Store) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	close(s.stop)
	s.psMu.Lock()
	if s.ps != nil {
		_ = s.ps.Close()
	}
	s.psMu.Unlock()
	s.wg.Wait()
	for _, b := range s.budgets() {
		// A lease request under way ends within StallTimeout; none starts
		// after closed is set (Acquire checks it under b.mu).
		b.mu.Lock()
		l := b.inflight
		b.mu.Unlock()
		if l != nil {
			<-l.done
		}
		if s.StoreFault() == nil {
			_ = b.flush(true)
		}
	}
	return nil
}

// setFault records err as the reason the store uses local state, logging
// the change from sharing.
func (s *Store) setFault(err error) {
	if err == nil {
		return
	}
	err = fmt.Errorf("redisstore: Redis unreachable, using local state: %w", err)
	if s.fault.Swap(&err) == nil && !s.closed.Load() {
		s.log.Warn("redisstore: Redis unreachable, using local state", slog.Any("error", err))
	}
}

// clearFault records that Redis answers again, logging the change.
func (s *Store) clearFault() {
	if s.fault.Swap(nil) != nil {
		s.log.Info("redisstore: Redis reachable again, sharing resumed")
	}
}

// signal wakes the background goroutine without blocking.
func (s *Store) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// background writes what the store learned (windows, refills, returned
// leases) every FlushInterval or when woken, and while Redis is unreachable
// probes it at the same period (each probe bounded by StallTimeout, so a
// Redis a slow link away is found again).
func (s *Store) background() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		case <-s.wake:
		}
		if s.StoreFault() != nil {
			ctx, cancel := context.WithTimeout(context.Background(), s.opts.StallTimeout)
			err := s.rdb.Ping(ctx).Err()
			cancel()
			if err != nil {
				continue
			}
			s.clearFault()
		}
		if err := s.writeWindows(); err != nil {
			s.setFault(err)
			continue
		}
		for _, b := range s.budgets() {
			if err := b.flush(false); err != nil {
				s.setFault(err)
				break
			}
		}
		for _, f := range s.fleetRates() {
			if err := f.sync(false); err != nil {
				s.setFault(err)
				break
			}
		}
	}
}
