package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"strings"
)

// startCPUProfile writes a CPU profile to path until the returned stop is
// called; with an empty path it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	return startRecording("--cpuprofile", path, pprof.StartCPUProfile, pprof.StopCPUProfile)
}

// startBlockProfile records where goroutines block (channel waits,
// mutex contention, each event 1 µs or longer) and writes the profile to
// path when the returned stop is called; with an empty path it does
// nothing.
func startBlockProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--blockprofile: %w", err)
	}
	runtime.SetBlockProfileRate(1000)
	return func() {
		_ = pprof.Lookup("block").WriteTo(f, 0)
		runtime.SetBlockProfileRate(0)
		_ = f.Close()
	}, nil
}

// startTrace writes an execution trace (go tool trace reads it) to path
// until the returned stop is called; with an empty path it does nothing.
// It shows where the crawl's goroutines wait, which a CPU profile cannot.
func startTrace(path string) (stop func(), err error) {
	return startRecording("--trace", path, trace.Start, trace.Stop)
}

// startRecording runs start on a new file at path (named by flag in
// errors); stop ends the recording and closes the file.
func startRecording(flag, path string, start func(io.Writer) error, end func()) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if err := start(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return func() {
		end()
		_ = f.Close()
	}, nil
}

// heapProfile is a heap profile to be written to a file at one moment of
// a command: mneme crawl --memprofile writes it when the crawl has ended,
// before it closes its stores, so that it shows what the crawl holds in
// memory at its largest.
type heapProfile struct {
	f   *os.File
	log io.Writer // gets a line of memory figures with the profile
	err error
}

// newHeapProfile creates the file at path (so that a bad path fails before
// the work starts); with an empty path it returns nil, whose methods do
// nothing.
func newHeapProfile(path string, log io.Writer) (*heapProfile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--memprofile: %w", err)
	}
	return &heapProfile{f: f, log: log}, nil
}

// write collects the garbage (a heap profile shows the heap as of the last
// collection) and writes the profile; a second call does nothing.
func (p *heapProfile) write() {
	if p == nil || p.f == nil {
		return
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(p.f, 0); err != nil {
		p.err = fmt.Errorf("--memprofile %s: %w", p.f.Name(), err)
	}
	if err := p.f.Close(); err != nil && p.err == nil {
		p.err = fmt.Errorf("--memprofile %s: %w", p.f.Name(), err)
	}
	p.f = nil
	fmt.Fprintln(p.log, memoryFigures())
}

// memoryFigures says how the process's memory divides: the live heap (what
// the profile shows), what the Go runtime holds in all (heap with its
// garbage and free spans, stacks, metadata), and the resident set, whose
// excess over the runtime's share is memory allocated outside Go (Pebble's
// block caches and memtables, with cgo).
func memoryFigures() string {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(samples)
	mb := func(b uint64) float64 { return float64(b) / (1 << 20) }
	s := fmt.Sprintf("memory: live heap %.0f MB, Go runtime %.0f MB", mb(samples[0].Value.Uint64()), mb(samples[1].Value.Uint64()))
	names := map[string]string{"VmRSS": "resident", "VmHWM": "peak resident"}
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(status)) {
			if k, v, ok := strings.Cut(line, ":"); ok && names[k] != "" {
				s += fmt.Sprintf(", %s %s", names[k], strings.TrimSpace(v))
			}
		}
	}
	return s
}

// close writes the profile if that was not done yet (the command failed
// before its moment) and reports what went wrong.
func (p *heapProfile) close() error {
	if p == nil {
		return nil
	}
	p.write()
	return p.err
}
