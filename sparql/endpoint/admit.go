package endpoint

import (
	"context"
	"sync"
	"time"
)

// Query classes, by the planner's estimated cost: each has its own slots,
// so that cheap queries never wait behind expensive ones.
const (
	cheap = iota
	expensive
)

// admission hands out query slots. A query that finds none free waits in
// its class's queue, for no longer than its own timeout; when a slot
// frees, it goes to the waiting query whose client was served least
// recently, so that a client sending many queries cannot starve one
// sending few. Queues are bounded, in all and per client: beyond them a
// query is refused at once as busy.
type admission struct {
	mu        sync.Mutex
	free      [2]int
	slots     [2]int
	queue     [2][]*ticket
	maxQueue  int
	perClient int                  // queries one client may have waiting
	waiting   map[string]int       // queries waiting, by client
	served    map[string]time.Time // when each client last got a slot
}

// ticket is one waiting query.
type ticket struct {
	client string
	ready  chan struct{} // closed when the slot is granted
}

func newAdmission(cheapSlots, expensiveSlots, maxQueue, perClient int) *admission {
	return &admission{free: [2]int{cheapSlots, expensiveSlots}, slots: [2]int{cheapSlots, expensiveSlots}, maxQueue: maxQueue, perClient: perClient,
		waiting: map[string]int{}, served: map[string]time.Time{}}
}

// errBusy refuses a query for load.
type errBusy struct{ waiting int }

func (e errBusy) Error() string { return "busy" }

// acquire waits for a slot of class for client until ctx is done. It
// returns the function that gives the slot back.
func (a *admission) acquire(ctx context.Context, class int, client string) (func(), error) {
	a.mu.Lock()
	if a.free[class] > 0 && len(a.queue[class]) == 0 {
		a.free[class]--
		a.grant(client)
		a.mu.Unlock()
		return func() { a.release(class) }, nil
	}
	if n := len(a.queue[cheap]) + len(a.queue[expensive]); n >= a.maxQueue || a.waiting[client] >= a.perClient {
		a.mu.Unlock()
		return nil, errBusy{waiting: n}
	}
	t := &ticket{client: client, ready: make(chan struct{})}
	a.queue[class] = append(a.queue[class], t)
	a.waiting[client]++
	a.mu.Unlock()
	select {
	case <-t.ready:
		return func() { a.release(class) }, nil
	case <-ctx.Done():
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	select {
	case <-t.ready: // granted as the context ended: give it on
		a.next(class)
	default:
		q := a.queue[class]
		for i, w := range q {
			if w == t {
				a.queue[class] = append(q[:i], q[i+1:]...)
				break
			}
		}
		a.unwait(client)
	}
	return nil, ctx.Err()
}

// release gives a slot of class back: to a waiting query, or free.
func (a *admission) release(class int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.next(class)
}

// next hands a slot of class to the waiting query whose client was
// served longest ago (the earliest in the queue among equals), or frees
// it.
func (a *admission) next(class int) {
	q := a.queue[class]
	if len(q) == 0 {
		a.free[class]++
		return
	}
	pick := 0
	for i, t := range q {
		if a.served[t.client].Before(a.served[q[pick].client]) {
			pick = i
		}
	}
	t := q[pick]
	a.queue[class] = append(q[:pick], q[pick+1:]...)
	a.unwait(t.client)
	a.grant(t.client)
	close(t.ready)
}

// maxClients bounds the clients whose last service is remembered.
const maxClients = 4096

// grant notes that client got a slot now.
func (a *admission) grant(client string) {
	if len(a.served) >= maxClients {
		// Forget clients not seen for a while (they start again as
		// if new, which only favours them once).
		old := time.Now().Add(-time.Minute)
		for c, t := range a.served {
			if t.Before(old) && a.waiting[c] == 0 {
				delete(a.served, c)
			}
		}
	}
	a.served[client] = time.Now()
}

func (a *admission) unwait(client string) {
	if a.waiting[client]--; a.waiting[client] <= 0 {
		delete(a.waiting, client)
	}
}

// load is the number of queries running and waiting.
func (a *admission) load() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.queue[cheap]) + len(a.queue[expensive])
	for c := range a.free {
		n += a.slots[c] - a.free[c]
	}
	return n
}
