// Package redisstore shares throttle windows and a fleet retry budget between
// processes through Redis, so that a fleet of clients behaves like one
// (retry-behavior.md §5, §8; issue 13). Generated code never imports it: a
// user opts in with one option line,
//
//	store, err := redisstore.New(redis.NewClient(&redis.Options{Addr: "redis:6379"}),
//		redisstore.Options{FleetCapacity: 2000})
//	defer store.Close()
//	client, err := dynamodb.New(endpoint, func(o *dynamodb.Options) { store.Share(&o.Options) })
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
// identity and operation) is written to Redis as one key that expires with
// the window, and announced on a pub/sub channel. Every Store keeps a mirror
// of the fleet's windows in memory, fed by that channel and by a full resync
// whenever it (re)subscribes and every [Options.ResyncInterval]; the client
// reads only the mirror, so asking "is this call blocked?" never costs a
// Redis round trip. Propagation delay: a window reaches every connected Store
// one Redis round trip plus one pub/sub delivery after the response that
// reported it (median 1.2 ms on loopback on a busy 2-core machine,
// TestWindowPropagationDelay); a Store that missed the
// message (disconnected, or its subscription broke) catches up at its next
// resync, within ResyncInterval (default 2 s) of Redis being reachable again.
//
// Host clocks are not trusted: a window's end is computed by Redis, as its
// own TIME plus the time left that the server reported, and each Store maps
// Redis time to its monotonic clock from the best of three TIME samples
// taken at every resync, placing Redis's reading at the moment the reply
// arrived: a window is never honoured early, and at most one TIME round trip
// late.
//
// # Fleet retry budget
//
// One token bucket per fleet (a Redis key), with a capacity the user sets
// ([Options.FleetCapacity], required), and the retry quota's costs and
// refills: 14 tokens a transient retry, 5 a throttling retry, a successful
// retry refunds its cost, a first-attempt success adds 1. It comes on top of
// each client's own retry quota: a retry needs both. A process leases tokens
// in batches ([Options.LeaseSize], default 28: two transient retries), so a
// retry costs no Redis round trip while its lease lasts; leased tokens count
// as spent. Refunds and first-attempt increments first top the lease back up
// to LeaseSize, so that retries that succeed keep a process supplied without
// any round trip; the rest is added up locally and written in one batch every
// [Options.FlushInterval]. A lease ends after [Options.LeaseTTL]: a live
// process then gives its unused tokens back; one killed with kill -9 cannot,
// so its lease key simply expires (after twice the TTL) and those tokens stay
// spent (at most one lease per process), to come back through refills like
// any spent token.
//
// # Faults
//
// Redis slow or down never fails or stalls a call. The only Redis operation
// on a call's path is taking a new lease, bounded by [Options.Timeout]
// (default 5 ms); past it, and for as long as Redis stays unreachable, the
// Store uses local state: its own mirror of windows (every window it learned
// or heard of is still honoured), and for the budget each client's own retry
// quota alone, with what it spends written off against the fleet budget once
// Redis is back. The fault is reported in runtime.AttemptInfo.StoreFault and
// logged through [Options.Logger] when it starts and ends. A background probe
// (every FlushInterval) resumes sharing as soon as Redis answers: the Store
// resubscribes, resyncs its windows and writes what it held back (windows
// learned meanwhile, refills, what it spent on credit). A Redis restart that
// loses its data loses no correctness, only sharing: every process keeps
// honouring the windows in its mirror, windows learned from then on are
// shared again, returns of leases taken before the restart are refused (their
// keys are gone), and the fleet budget starts full, like a new fleet's.
//
// Redis load: besides the writes above, each Store resyncs (three TIME, one
// SCAN and one MGET) every ResyncInterval and writes refills at most once per
// FlushInterval; a successful call with no active window sends nothing.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/retrygen/retrygen/runtime"
)

// Defaults of [Options].
const (
	// DefaultPrefix starts every key and the pub/sub channel.
	DefaultPrefix = "retrygen:"
	// DefaultLeaseSize is two transient retries' worth of tokens: 28.
	DefaultLeaseSize = 2 * runtime.RetryCostTransient
	// DefaultLeaseTTL is how long a lease lasts: 10 s.
	DefaultLeaseTTL = 10 * time.Second
	// DefaultTimeout bounds the Redis round trip a retry may wait for: 5 ms.
	DefaultTimeout = 5 * time.Millisecond
	// DefaultFlushInterval is the period of batched refills and of the
	// probe while Redis is unreachable: 100 ms.
	DefaultFlushInterval = 100 * time.Millisecond
	// DefaultResyncInterval is the period of full window resyncs: 2 s.
	DefaultResyncInterval = 2 * time.Second
	// DefaultMaxWindow caps how long a shared window lasts: 10 min, so one
	// bogus header cannot block a fleet for longer (retry-behavior.md §8).
	DefaultMaxWindow = 10 * time.Minute
	// bucketIdleTTL is how long the budget's key outlives its last write:
	// a fleet idle this long starts again with a full budget.
	bucketIdleTTL = time.Hour
)

// backgroundTimeout bounds Redis operations off the call path (resync,
// flush, pushes): 1 s. A variable only so that the tests, which assert that
// a store on a healthy Redis never faults, can lengthen it (TestMain) on a
// loaded machine; nothing else changes it.
var backgroundTimeout = time.Second

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
	// Timeout bounds the one Redis round trip a call may wait for (a new
	// lease); 0 means DefaultTimeout (5 ms).
	Timeout time.Duration
	// FlushInterval is how often refills are written and, while Redis is
	// unreachable, how often it is probed; 0 means DefaultFlushInterval.
	FlushInterval time.Duration
	// ResyncInterval is how often the window mirror is rebuilt from Redis;
	// 0 means DefaultResyncInterval (2 s).
	ResyncInterval time.Duration
	// MaxWindow caps a shared window's length; 0 means DefaultMaxWindow.
	MaxWindow time.Duration
	// Prefix starts every key and the channel; "" means DefaultPrefix.
	// Fleets that must not share state use different prefixes.
	Prefix string
	// Logger receives a Warn record when Redis becomes unreachable and an
	// Info record when sharing resumes; nil means slog.Default().
	Logger *slog.Logger
}

// Store shares throttle windows (a runtime.ThrottleWindowStore) and a fleet
// retry budget (a runtime.RetryBudget) between processes through Redis. It
// is safe for concurrent use. Create one per process with [New], hand it to
// every client with [Store.Share], and [Store.Close] it at exit.
type Store struct {
	rdb  redis.UniversalClient
	opts Options
	log  *slog.Logger

	// mirror holds every window this process knows, in local time.
	mirror runtime.WindowStore
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

	budget budget

	wake   chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup
	psMu   sync.Mutex
	ps     *redis.PubSub
	closed atomic.Bool
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
}

// New returns a Store over rdb and starts its background goroutines (stop
// them with Close). It fails when opts.FleetCapacity is not positive; Redis
// need not be reachable yet.
func New(rdb redis.UniversalClient, opts Options) (*Store, error) {
	if rdb == nil {
		return nil, errors.New("redisstore.New: nil Redis client")
	}
	if opts.FleetCapacity <= 0 {
		return nil, fmt.Errorf("redisstore.New: Options.FleetCapacity is %d: the fleet retry budget's capacity in tokens is required (e.g. 2000)", opts.FleetCapacity)
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
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.budget.s = s
	s.wg.Add(2)
	go s.subscribe()
	go s.background()
	return s, nil
}

// Share makes the client whose options o points to share this store's
// throttle windows (Options.Windows) and fleet retry budget
// (Options.FleetRetryBudget). Use it in a generated client's option
// function: `func(o *dynamodb.Options) { store.Share(&o.Options) }`.
func (s *Store) Share(o *runtime.Options) {
	o.Windows, o.FleetRetryBudget = s, &s.budget
}

// FleetRetryBudget returns the fleet retry budget, for Options.FleetRetryBudget.
func (s *Store) FleetRetryBudget() runtime.RetryBudget { return &s.budget }

// StoreFault returns the error that made the store fall back to local
// state, or nil while it shares (runtime.StoreFaultReporter).
func (s *Store) StoreFault() error {
	if p := s.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// Close stops the background goroutines and waits for a lease request under
// way, then gives back the unused tokens of the current lease and writes
// pending refills (each bounded by one second).
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
	// A lease request under way ends within backgroundTimeout; none starts
	// after closed is set (Acquire checks it under budget.mu).
	s.budget.mu.Lock()
	l := s.budget.inflight
	s.budget.mu.Unlock()
	if l != nil {
		<-l.done
	}
	if s.StoreFault() == nil {
		_ = s.budget.flush(true)
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
// probes it at the same period.
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
			ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
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
		if err := s.budget.flush(false); err != nil {
			s.setFault(err)
		}
	}
}
