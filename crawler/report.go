package crawler

import (
	"fmt"

	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/revisit"
)

// QueueReport is one queue of a frontier report: its state and sizes and,
// in an incremental crawl, how well the host's headers predicted changes.
type QueueReport struct {
	frontier.QueueStats
	Trust *revisit.Trust // nil when no prediction was recorded
}

// Report is what a crawl's frontier holds: counts of URLs by state and
// every queue.
type Report struct {
	Status Status
	Totals frontier.Totals
	Queues []QueueReport
}

// ReadReport reads the frontier of crawl id of data folder data, which must
// not be open (a running crawl's queues are in its Status and Queues, and
// in the control API).
func ReadReport(data, id string) (Report, error) {
	st, err := ReadStatus(data, id)
	if err != nil {
		return Report{}, err
	}
	f, err := frontier.Open(Layout{Data: data}.Frontier(id), frontier.Options{Incremental: true})
	if err != nil {
		return Report{}, fmt.Errorf("crawl %s: %w (is it running? a running crawl reports its queues through the control API)", id, err)
	}
	defer f.Close()
	r := Report{Status: st, Totals: f.Totals()}
	f.EachQueue(func(q frontier.QueueStats) bool {
		r.Queues = append(r.Queues, QueueReport{QueueStats: q})
		return true
	})
	for i := range r.Queues {
		data, err := f.QueueData(r.Queues[i].Key)
		if err != nil {
			return Report{}, err
		}
		if data == nil {
			continue
		}
		snap, err := decodeQueueSnapshot(data)
		if err != nil {
			return Report{}, fmt.Errorf("queue %s: %w", r.Queues[i].Key, err)
		}
		if snap.Trust.Checked > 0 {
			r.Queues[i].Trust = &snap.Trust
		}
	}
	return r, nil
}
