package graph

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"testing"
)

// TestOpenLocked checks that a store held by another Open, in this
// process or another one, is refused with ErrLocked, read-only or not,
// and opens again once released.
func TestOpenLocked(t *testing.T) {
	if dir := os.Getenv("MNEME_HOLD_STORE"); dir != "" {
		holdStore(t, dir)
		return
	}
	dir := t.TempDir()
	s, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{true, false} {
		if _, err := Open(dir, OpenOptions{ReadOnly: ro}); !errors.Is(err, ErrLocked) {
			t.Errorf("read-only %v, held in this process: %v, want ErrLocked", ro, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Another process holds it until its stdin closes.
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenLocked$")
	cmd.Env = append(os.Environ(), "MNEME_HOLD_STORE="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("holder: %q, %v", line, err)
	}
	if _, err := Open(dir, OpenOptions{ReadOnly: true}); !errors.Is(err, ErrLocked) {
		t.Errorf("held by another process: %v, want ErrLocked", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatalf("after the holder exited: %v", err)
	}
	s.Close()
	// A directory that cannot be opened is not reported as locked.
	if _, err := Open(dir+"/none", OpenOptions{ReadOnly: true}); err == nil || errors.Is(err, ErrLocked) {
		t.Errorf("missing store: %v", err)
	}
}

// holdStore opens dir, says so on stdout and holds it until stdin closes.
func holdStore(t *testing.T, dir string) {
	s, err := Open(dir, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	os.Stdout.WriteString("held\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}
