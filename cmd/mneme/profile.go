package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startCPUProfile writes a CPU profile to path until the returned stop is
// called; with an empty path it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	return startRecording("--cpuprofile", path, pprof.StartCPUProfile, pprof.StopCPUProfile)
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
