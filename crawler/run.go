package crawler

import (
	"context"
	"errors"
	"fmt"
	"runtime/trace"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Run crawls until nothing is left, a limit is reached, Stop is called or
// ctx is cancelled, then closes the crawl. It returns nil in all those
// cases (Status tells finished from stopped) and an error only when the
// crawl failed (a WARC file or the store could not be written) or every
// seed failed (ErrSeedsFailed); a stopped or failed crawl can be resumed
// with Open.
func (c *Crawl) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.running || c.closed {
		c.mu.Unlock()
		return errors.New("crawl: Run called twice")
	}
	c.running = true
	ctx, cancel := context.WithCancelCause(ctx)
	c.cancel = cancel
	c.mu.Unlock()
	defer cancel(nil)

	c.runStart = time.Now()
	c.seedw.start(cancel)
	if err := c.setState(StateRunning, ""); err != nil {
		c.Close()
		return err
	}
	if err := c.http.logIn(ctx, c.spec.UserAgent, c.deps.Log); err != nil {
		return c.end("", err, nil)
	}
	var failed error
	var failOnce sync.Once
	fail := func(err error) {
		failOnce.Do(func() { failed = err })
		cancel(err)
	}
	sk := newSink(c)
	go sk.run(fail)
	// The dispatcher claims up to a worker's worth of URLs ahead, so that a
	// worker that finishes takes its next URL at once rather than waiting
	// for the dispatcher to be scheduled (on a busy CPU, a wait as long as
	// a fetch). Claims ahead count in flight like the others.
	work := make(chan *frontier.Claim, c.spec.Workers)
	slots := make(chan struct{}, 2*c.spec.Workers)
	var wg sync.WaitGroup
	for i := range c.spec.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cl := range work {
				items, err := c.process(ctx, i+1, cl)
				<-slots
				logs := c.wlogs[i+1]
				c.wlogs[i+1] = nil
				if err != nil {
					if ctx.Err() == nil {
						fail(fmt.Errorf("%s: %w", cl.URL, err))
					}
					continue // left in flight: fetched again on resume
				}
				if c.inc != nil {
					if err := c.inc.parked(cl, &items[len(items)-1]); err != nil {
						fail(fmt.Errorf("%s: %w", cl.URL, err))
						continue
					}
				}
				c.describe(items)
				items[len(items)-1].logs = logs
				if err := c.hand(sk, items); err != nil {
					fail(fmt.Errorf("%s: %w", cl.URL, err))
				}
			}
		}()
	}
	reason, err := c.dispatch(ctx, work, slots, sk)
	if err != nil {
		fail(err)
	}
	close(work)
	wg.Wait()
	close(sk.in)
	<-sk.done
	if c.deps.BeforeClose != nil {
		c.deps.BeforeClose()
	}
	return c.end(reason, failed, context.Cause(ctx))
}

// hand passes a worker's items to the RDF writer, then schedules their
// links. Links go to the frontier now rather than after their batch
// commits, so that the workers do not run out of URLs while the writer
// commits; the writer completes the items (after its commit) only once
// their links are scheduled, as the frontier requires. Handing over first
// keeps a page ahead of every page found on it in the writer's input, so
// the capture a mneme:via names is in the same batch or an earlier one.
func (c *Crawl) hand(sk *sink, items []item) error {
	var sch *scheduling
	n := 0
	for i := range items {
		n += len(items[i].cands)
	}
	if n > 0 {
		sch = &scheduling{}
		sch.Add(1)
		items[len(items)-1].scheduled = sch
	}
	sk.handed.Add(int64(countURLs(items)))
	sk.in <- items
	defer c.wakeUp() // the dispatcher may have new URLs, or all in flight with the writer
	if sch == nil {
		return nil
	}
	var waits []func() error
	for i := range items {
		cands, sent, err := c.route(items[i].cands)
		if err == nil {
			err = c.front.Schedule(cands)
		}
		if err != nil {
			sch.err = err
			sch.Done()
			return err
		}
		if c.deps.Cluster != nil {
			waits = append(waits, sent)
		}
	}
	if err := c.focusApply(len(items)); err != nil {
		sch.err = err
		sch.Done()
		return err
	}
	if len(waits) == 0 {
		sch.Done()
		return nil
	}
	// Links sent to other nodes are safe once the cluster has them: the
	// writer waits for that before it completes the page, not the worker.
	go func() {
		defer sch.Done()
		for _, w := range waits {
			if err := w(); err != nil && sch.err == nil {
				sch.err = err
			}
		}
	}()
	return nil
}

// scheduling is done when the links of a worker's items are scheduled;
// err says why they could not be.
type scheduling struct {
	sync.WaitGroup
	err error
}

// end records how the run ended and closes the crawl.
func (c *Crawl) end(finished string, failed, cause error) error {
	var errs []error
	switch {
	case failed != nil:
		errs = append(errs, failed, c.setState(StateStopped, "failed: "+failed.Error()))
	case finished != "":
		b := c.deps.Store.NewBatch()
		b.Add(crawlrdf.Ended(c.id, c.clock.Now()))
		if _, err := b.Commit(context.Background()); err != nil {
			errs = append(errs, err)
		}
		errs = append(errs, c.setState(StateFinished, finished))
	default:
		why := "stopped"
		if cause != nil && !errors.Is(cause, errStopped) {
			why = "stopped: " + cause.Error()
		}
		if errors.Is(cause, ErrSeedsFailed) {
			errs = append(errs, cause)
		}
		errs = append(errs, c.setState(StateStopped, why))
	}
	errs = append(errs, c.Close())
	// The report is a reading aid, made from the closed crawl.log: a
	// failure to write it is reported, not the crawl's.
	if err := c.writeReport(); err != nil {
		fmt.Fprintln(c.deps.Log, err)
	}
	return errors.Join(errs...)
}

// setState updates and writes the state file, adding the time run so far.
func (c *Crawl) setState(s, reason string) error {
	c.stMu.Lock()
	defer c.stMu.Unlock()
	now := time.Now()
	if s != StateRunning {
		c.st.Elapsed += now.Sub(c.runStart)
		c.runStart = now
	}
	c.st.State, c.st.Reason = s, reason
	if s == StateFinished {
		c.st.Ended = c.clock.Now()
	}
	return writeState(c.layout.State(c.id), c.st)
}

// elapsed is the running time over all runs.
func (c *Crawl) elapsed() time.Duration {
	c.stMu.Lock()
	defer c.stMu.Unlock()
	if c.st.State == StateRunning || c.st.State == StatePaused {
		return c.st.Elapsed + time.Since(c.runStart)
	}
	return c.st.Elapsed
}

// dispatch claims URLs for free workers until the crawl is done (it
// returns why), stopped (it returns "") or failing.
func (c *Crawl) dispatch(ctx context.Context, work chan<- *frontier.Claim, slots chan struct{}, sk *sink) (string, error) {
	virtual, _ := c.clock.(*clock.Virtual)
	for {
		if ctx.Err() != nil {
			return "", nil
		}
		if c.isPaused() {
			c.waitWake(ctx, time.Time{})
			continue
		}
		if why := c.limitReached(); why != "" {
			return why, nil
		}
		if c.inFlightCount() >= c.maxInFlight() {
			trace.Log(ctx, "dispatch", "in-flight bound")
			c.waitWake(ctx, time.Time{}) // a batch must commit first
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return "", nil
		}
		cl, next, paused, err := c.claim(ctx)
		if err != nil {
			<-slots
			if ctx.Err() != nil {
				return "", nil
			}
			return "", err
		}
		if cl != nil {
			work <- cl
			continue
		}
		<-slots
		if paused {
			continue
		}
		idle := c.inFlightCount() == 0
		switch {
		case next.IsZero() && idle && c.deps.Cluster != nil && !c.deps.Cluster.Done():
			// Other nodes may still send URLs here.
			c.waitWake(ctx, c.clock.Now().Add(clusterWait))
		case next.IsZero() && idle:
			return "no more URLs to crawl", nil
		case next.IsZero() || virtual != nil && !idle:
			trace.Log(ctx, "dispatch", "nothing to claim")
			if next.IsZero() && sk.holdsAll() {
				sk.commitNow() // no fetch can bring more: why wait for a quiet interval?
			}
			c.waitWake(ctx, time.Time{})
		case virtual != nil:
			virtual.Set(next) // nothing in flight: jump to the next ready queue
		default:
			c.waitWake(ctx, next)
		}
	}
}

// maxInFlight bounds the URLs claimed and not completed: one per worker
// plus two full RDF batches, so that the workers fill the next batch
// while the writer commits one. It is also what a crash can make fetch
// twice.
func (c *Crawl) maxInFlight() int64 { return int64(c.spec.Workers + 2*c.spec.RDF.Batch) }

// limitReached says which crawl limit is reached, if any.
func (c *Crawl) limitReached() string {
	l := c.spec.Limits
	pages, bytes := c.counters.pagesBytes()
	switch {
	case l.Pages > 0 && pages >= l.Pages:
		return fmt.Sprintf("page limit reached (%d)", l.Pages)
	case l.Bytes > 0 && bytes >= l.Bytes:
		return fmt.Sprintf("byte limit reached (%d)", l.Bytes)
	case l.Duration > 0 && c.elapsed() >= time.Duration(l.Duration):
		return fmt.Sprintf("time limit reached (%v)", time.Duration(l.Duration))
	}
	return ""
}

// waitWake waits for a completion, an injection, Resume or Stop, or until
// the deadline (zero: none) or the time limit.
func (c *Crawl) waitWake(ctx context.Context, deadline time.Time) {
	var timeout <-chan time.Time
	if d := time.Duration(c.spec.Limits.Duration); d > 0 {
		left := d - c.elapsed()
		if !deadline.IsZero() {
			left = min(left, deadline.Sub(c.clock.Now()))
		}
		deadline = c.clock.Now().Add(left)
	}
	if !deadline.IsZero() {
		t := time.NewTimer(max(deadline.Sub(c.clock.Now()), 0))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-c.wake:
	case <-timeout:
	case <-ctx.Done():
	}
}

// wakeUp tells the dispatcher something changed.
func (c *Crawl) wakeUp() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// claim claims the next URL unless the crawl is paused, and counts it in
// flight before Pause can return: once Pause has returned nothing is
// claimed until Resume, and Status().InFlight counts every URL claimed
// before, so a caller that pauses and waits for it to reach 0 leaves
// nothing in flight (a claim counted only after Pause returned could be
// fetched, or cut by Stop, behind its back).
func (c *Crawl) claim(ctx context.Context) (cl *frontier.Claim, next time.Time, paused bool, err error) {
	c.claimMu.Lock()
	defer c.claimMu.Unlock()
	if c.isPaused() {
		return nil, time.Time{}, true, nil
	}
	cl, next, err = c.front.Next(ctx)
	if cl != nil {
		c.mu.Lock()
		c.inFlight++
		c.mu.Unlock()
	}
	return cl, next, false, err
}

func (c *Crawl) doneInFlight(n int) {
	c.mu.Lock()
	c.inFlight -= int64(n)
	c.mu.Unlock()
	c.wakeUp()
}

func (c *Crawl) inFlightCount() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inFlight
}

func (c *Crawl) isPaused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

// Pause stops claiming URLs; fetches under way finish, and so do those of
// the URLs claimed ahead for the workers (at most one a worker). When it
// returns, Status().InFlight counts every URL claimed before.
func (c *Crawl) Pause() { c.setPaused(true) }

// Resume continues a paused crawl.
func (c *Crawl) Resume() { c.setPaused(false) }

func (c *Crawl) setPaused(p bool) {
	c.claimMu.Lock() // waits for a claim under way to be counted
	c.mu.Lock()
	c.paused = p
	c.mu.Unlock()
	c.claimMu.Unlock()
	c.wakeUp()
}

// Stop ends Run: fetches cut short are abandoned (fetched again when the
// crawl is resumed), finished ones are committed.
func (c *Crawl) Stop() {
	c.mu.Lock()
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel(errStopped)
	}
}

// Status returns the crawl's live figures.
func (c *Crawl) Status() Status {
	s := Status{ID: c.id, Incremental: c.spec.Incremental != nil}
	c.stMu.Lock()
	s.State, s.Reason, s.Started = c.st.State, c.st.Reason, c.st.Started
	c.stMu.Unlock()
	s.Elapsed = c.elapsed()
	c.mu.Lock()
	if c.paused && s.State == StateRunning {
		s.State = StatePaused
	}
	s.InFlight = c.inFlight
	c.mu.Unlock()
	c.counters.snapshot(&s)
	s.Seeds = c.seedw.fates()
	// The frontier's counts and queues are kept in memory: they stay
	// readable, as they were last, after Run closed the crawl.
	t := c.front.Totals()
	s.Queued, s.Succeeded, s.Failed, s.Disregard, s.Queues = t.Queued+t.Pending, t.Succeeded, t.Failed, t.Disregarded, t.Queues
	s.Waiting = t.Waiting
	s.QueueState = map[frontier.QueueState]int64{}
	c.front.EachQueue(func(q frontier.QueueStats) bool {
		s.QueueState[q.State]++
		return true
	})
	return s
}

// Queues calls fn with the state of each queue, until fn returns false.
// fn must not call the crawl.
func (c *Crawl) Queues(fn func(frontier.QueueStats) bool) { c.front.EachQueue(fn) }
