package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress reports a long-running load: a bar redrawn in place on a
// terminal, plain log lines otherwise.
type progress struct {
	w     io.Writer
	tty   bool
	run   *loadRun
	start time.Time
	mu    sync.Mutex
	label string
	done  chan struct{}
	wg    sync.WaitGroup
}

// isTerminal reports whether w is a character device (a terminal); the
// standard library's file mode says so without another dependency.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// tick calls f every period until done is closed; wg waits for it.
func tick(wg *sync.WaitGroup, done <-chan struct{}, every time.Duration, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
}

func startProgress(w io.Writer, run *loadRun, start time.Time) *progress {
	p := &progress{w: w, tty: isTerminal(w), run: run, start: start, done: make(chan struct{})}
	every := 10 * time.Second
	if p.tty {
		every = 250 * time.Millisecond
	}
	tick(&p.wg, p.done, every, p.print)
	return p
}

// phase names what the load is doing once reading is over.
func (p *progress) phase(label string) {
	p.mu.Lock()
	p.label = label
	p.mu.Unlock()
	p.print()
}

func (p *progress) print() {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start)
	n := p.run.loader.Read()
	rate := float64(n) / max(elapsed.Seconds(), 1e-3)
	line := fmt.Sprintf("%s triples  %s triples/s  %s", humanCount(float64(n)), humanCount(rate), elapsed.Round(time.Second))
	if p.label != "" {
		line += "  " + p.label + "…"
	} else if read := p.run.files.BytesRead(); p.run.total > 0 && read > 0 {
		frac := min(float64(read)/float64(p.run.total), 1)
		eta := time.Duration(float64(elapsed) * (1 - frac) / frac)
		line += fmt.Sprintf("  %s %3.0f%%  ETA %s", bar(frac, 20), 100*frac, eta.Round(time.Second))
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintf(p.w, "load: %s\n", line)
	}
}

// stop ends the reports, clearing the bar on a terminal.
func (p *progress) stop() {
	close(p.done)
	p.wg.Wait()
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func bar(frac float64, width int) string {
	full := int(frac * float64(width))
	b := make([]rune, width)
	for i := range b {
		b[i] = '░'
		if i < full {
			b[i] = '█'
		}
	}
	return string(b)
}

// humanCount writes 1234567 as 1.23M.
func humanCount(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2fG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
