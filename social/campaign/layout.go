package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Layout names the files of campaigns in a data folder: DATA/social/ID
// holds a campaign's spec, its WARC files with their CDXJ indexes, its
// log and its run state; its RDF goes into the shared store DATA/store,
// in the campaign's own named graph.
type Layout struct{ Data string }

// Campaigns is the folder holding one folder per campaign.
func (l Layout) Campaigns() string { return filepath.Join(l.Data, "social") }

// Dir is the folder of one campaign.
func (l Layout) Dir(id string) string { return filepath.Join(l.Campaigns(), id) }

// Spec is the campaign's specification file.
func (l Layout) Spec(id string) string { return filepath.Join(l.Dir(id), "spec.yaml") }

// WARCs is the folder of the campaign's WARC files.
func (l Layout) WARCs(id string) string { return filepath.Join(l.Dir(id), "warcs") }

// Log is the campaign's log: one JSON object a line, one per request.
func (l Layout) Log(id string) string { return filepath.Join(l.Dir(id), "campaign.log") }

// State is the file holding the campaign's run state (see State).
func (l Layout) State(id string) string { return filepath.Join(l.Dir(id), "state") }

// Store is the data folder's quad store.
func (l Layout) Store() string { return filepath.Join(l.Data, "store") }

// Secrets is the default secrets file.
func (l Layout) Secrets() string { return filepath.Join(l.Data, "secrets.yaml") }

// IDs lists the campaigns of the data folder, sorted.
func (l Layout) IDs() ([]string, error) {
	entries, err := os.ReadDir(l.Campaigns())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && ValidID(e.Name()) {
			if _, err := os.Stat(l.Spec(e.Name())); err == nil {
				ids = append(ids, e.Name())
			}
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Create makes the campaign's folder and writes its spec, failing when
// the campaign exists.
func (l Layout) Create(s *Spec) error {
	if s.ID == "" || !ValidID(s.ID) {
		return fmt.Errorf("campaign id %q is not valid", s.ID)
	}
	if err := os.MkdirAll(l.Campaigns(), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(l.Dir(s.ID), 0o755); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("campaign %s exists already (%s)", s.ID, l.Dir(s.ID))
	} else if err != nil {
		return err
	}
	return l.WriteSpec(s)
}

// WriteSpec replaces the campaign's spec file atomically.
func (l Layout) WriteSpec(s *Spec) error {
	data, err := s.Marshal()
	if err != nil {
		return err
	}
	return writeAtomic(l.Spec(s.ID), data)
}

// LoadSpec reads a campaign's spec.
func (l Layout) LoadSpec(id string) (*Spec, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("campaign id %q is not valid", id)
	}
	s, err := Load(l.Spec(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no campaign %s in %s", id, l.Data)
	}
	if err != nil {
		return nil, err
	}
	s.ID = id
	return s, nil
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Run states of a campaign, kept in its state file.
const (
	Created = "created" // never started
	Running = "running" // started and not stopped: a process runs it, or one was killed and it resumes
	Paused  = "paused"  // stopped by the operator, to resume
	Stopped = "stopped" // ended by the operator
	Done    = "done"    // ended by itself: its passes run, or its budget spent
)

// State is a campaign's run state and why.
type State struct {
	State  string `yaml:"state"`
	Reason string `yaml:"reason,omitempty"`
}

// ReadState reads the campaign's state; Created when it has none.
func (l Layout) ReadState(id string) (State, error) {
	data, err := os.ReadFile(l.State(id))
	if errors.Is(err, fs.ErrNotExist) {
		return State{State: Created}, nil
	}
	if err != nil {
		return State{}, err
	}
	var s State
	if err := yaml.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("%s: %w", l.State(id), err)
	}
	return s, nil
}

// WriteState records the campaign's state.
func (l Layout) WriteState(id string, s State) error {
	data, err := yaml.Marshal(s)
	if err != nil {
		return err
	}
	return writeAtomic(l.State(id), data)
}

// Secrets are the credentials of each platform, by key: what a platform
// reads from platform.Env.Credentials.
type Secrets map[string]map[string]string

// LoadSecrets reads the secrets file at path (a missing file is no
// secrets) and adds the environment's MNEME_SOCIAL_<PLATFORM>_<KEY>
// variables over it. The file must not be readable by others.
func LoadSecrets(path string, environ []string) (Secrets, error) {
	s := Secrets{}
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
				return nil, fmt.Errorf("secrets file %s is readable by others (mode %v): chmod 600 it", path, fi.Mode().Perm())
			}
			if err := yaml.Unmarshal(data, &s); err != nil {
				// yaml's message may quote the file: keep it out of errors.
				return nil, fmt.Errorf("secrets file %s is not a YAML map of platform to key to value", path)
			}
		}
	}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		rest, found := strings.CutPrefix(name, "MNEME_SOCIAL_")
		if !ok || !found || value == "" {
			continue
		}
		plat, key, ok := strings.Cut(rest, "_")
		if !ok || key == "" {
			continue
		}
		plat, key = strings.ToLower(plat), strings.ReplaceAll(strings.ToLower(key), "_", "-")
		if s[plat] == nil {
			s[plat] = map[string]string{}
		}
		s[plat][key] = value
	}
	return s, nil
}

// Values lists every secret value, for redaction.
func (s Secrets) Values() []string {
	var out []string
	for _, m := range s {
		for _, v := range m {
			out = append(out, v)
		}
	}
	return out
}
