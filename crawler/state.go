package crawler

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mneme-archive/mneme/crawler/spec"
)

// Run states of a crawl, as kept in its state file and shown by Status.
const (
	StateRunning  = "running"  // Run is under way (or the process died: resume it)
	StatePaused   = "paused"   // Run is under way, claiming nothing
	StateStopped  = "stopped"  // Run ended before the crawl was done: resumable
	StateFinished = "finished" // nothing left to crawl, or a limit was reached
)

// state is the crawl's state file.
type state struct {
	ID      string        `json:"id"`
	State   string        `json:"state"`
	Reason  string        `json:"reason,omitempty"` // why it finished or stopped
	Started time.Time     `json:"started"`
	Ended   time.Time     `json:"ended,omitzero"`
	Elapsed time.Duration `json:"elapsed"` // running time summed over runs, in nanoseconds
}

func readState(path string) (state, error) {
	var s state
	data, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// writeState replaces the state file atomically.
func writeState(path string, s state) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return replaceFile(path, append(data, '\n'), true)
}

// ErrFinished is returned by Open for a crawl that already finished.
var ErrFinished = errors.New("crawl already finished")

// ErrExists is returned by New when the crawl's folder exists already.
var ErrExists = errors.New("crawl already exists (resume it instead)")

// ReadStatus is the status of crawl id of data folder data as its state
// file last recorded it, without opening the crawl (so without live
// figures). A crawl recorded as running or paused that is not open
// anywhere was interrupted: resume it.
func ReadStatus(data, id string) (Status, error) {
	st, err := readState(Layout{Data: data}.State(id))
	if err != nil {
		return Status{}, err
	}
	s := Status{ID: st.ID, State: st.State, Reason: st.Reason, Started: st.Started, Elapsed: st.Elapsed}
	if sp, err := spec.Load(Layout{Data: data}.Spec(id)); err == nil {
		s.Incremental = sp.Incremental != nil
	}
	return s, nil
}
