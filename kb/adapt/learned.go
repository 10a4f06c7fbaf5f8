package adapt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// LearnedPath is where a data folder keeps its learned patterns.
func LearnedPath(dataDir string) string { return filepath.Join(dataDir, "kb", "learned.yaml") }

// Learned is a file of learned patterns (proposals), loaded alongside the
// shipped knowledge base, and the review API over it: list, accept,
// reject. Every change is made to the file as it is then (read again, so
// that the crawls and reviews of a data folder, each with its own
// Learned, keep each other's changes) and written back at once (to a
// temporary file renamed over the old one). It is safe for concurrent use.
type Learned struct {
	mu    sync.Mutex
	path  string
	props []Proposal
}

type learnedFile struct {
	Learned []Proposal `yaml:"learned"`
}

const learnedHeader = `# Patterns mneme learned when a site's template no longer matched the
# knowledge base (package kb/adapt). Each adds an alternative to the KB,
# with its provenance: site, time, the pages it was checked on. status:
# pending (in use, not reviewed), accepted, or rejected (never used).
# Review with: mneme kb learned [--accept ID | --reject ID]
`

// OpenLearned reads the learned file at path; a missing file is an empty
// one, created on the first change.
func OpenLearned(path string) (*Learned, error) {
	l := &Learned{path: path}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	if l.props, err = ParseLearned(path, f, nil); err != nil {
		return nil, err
	}
	return l, nil
}

// ParseLearned reads and checks a learned file: known keys only, a valid
// status, action, object kind and field, an XPath that compiles and, when
// k is given, a type and level that k has. Problems come back together as
// kb.Errors (file:line:column).
func ParseLearned(name string, r io.Reader, k *kb.KB) ([]Proposal, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, kb.Errors{{File: name, Line: 1, Msg: err.Error()}}
	}
	var f learnedFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, kb.Errors{{File: name, Line: 1, Msg: err.Error()}}
	}
	items := learnedItems(&doc)
	var errs kb.Errors
	for i := range f.Learned {
		line := 0
		if i < len(items) {
			line = items[i].Line
		}
		bad := func(key, format string, args ...any) {
			ln, col := line, 0
			if i < len(items) {
				if v := valueOf(items[i], key); v != nil {
					ln, col = v.Line, v.Column
				}
			}
			errs = append(errs, &kb.Error{File: name, Line: ln, Col: col, Msg: fmt.Sprintf(format, args...)})
		}
		checkProposal(&f.Learned[i], k, bad)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return f.Learned, nil
}

// learnedItems returns the mapping nodes of the learned list.
func learnedItems(doc *yaml.Node) []*yaml.Node {
	if len(doc.Content) == 0 {
		return nil
	}
	if l := valueOf(doc.Content[0], "learned"); l != nil && l.Kind == yaml.SequenceNode {
		return l.Content
	}
	return nil
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

var knownFields = []kb.Field{kb.FieldTitle, kb.FieldAuthor, kb.FieldAuthorURL, kb.FieldDate, kb.FieldModified,
	kb.FieldContent, kb.FieldTags, kb.FieldCategories, kb.FieldReplyTo, kb.FieldID, kb.FieldURL, kb.FieldNote, kb.FieldVersionOf}

var knownKinds = []kb.ObjectKind{kb.BlogPost, kb.Comment, kb.ForumPost, kb.WikiArticle, kb.WikiRevision, kb.WebPage}

func checkProposal(p *Proposal, k *kb.KB, bad func(key, format string, args ...any)) {
	if !slices.Contains([]Status{Pending, Accepted, Rejected}, p.Status) {
		bad("status", "status %q: expected pending, accepted or rejected", p.Status)
	}
	if p.Site == "" {
		bad("site", "missing site (the host the pattern was learned on)")
	}
	if p.Method != MethodRelearn && p.Method != MethodRelax {
		bad("method", "method %q: expected relearn or relax", p.Method)
	}
	switch p.Action {
	case ActionField:
		if !slices.Contains(knownKinds, p.Object) {
			bad("object", "object %q: expected one of %v", p.Object, knownKinds)
		}
		if !slices.Contains(knownFields, p.Field) {
			bad("field", "field %q: expected one of %v", p.Field, knownFields)
		}
	case ActionNavigate:
		if p.Target == "" {
			bad("target", "a navigate proposal needs a target level")
		}
	case ActionDetect:
	default:
		bad("action", "action %q: expected field, navigate or detect", p.Action)
	}
	if _, err := compile(p.Pattern); err != nil {
		bad("pattern", "pattern %q: %v", p.Pattern, err)
	}
	if k != nil {
		if t := k.Type(p.Type); t == nil {
			bad("type", "type %q is not in the knowledge base", p.Type)
		} else if t.Level(p.Level) == nil {
			bad("level", "type %s has no level %q", p.Type, p.Level)
		}
	}
	want := *p
	want.setID()
	if p.ID != want.ID {
		bad("id", "id %q does not match the proposal (expected %s): edit the pattern through review, not by hand", p.ID, want.ID)
	}
}

// Path returns the file's path.
func (l *Learned) Path() string { return l.path }

// List returns the proposals in the order they were learned.
func (l *Learned) List() []Proposal {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.props)
}

// Get returns the proposal with the given ID.
func (l *Learned) Get(id string) (Proposal, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.props, func(p Proposal) bool { return p.ID == id })
	if i < 0 {
		return Proposal{}, false
	}
	return l.props[i], true
}

// Add records new proposals and saves the file; one whose ID is there
// already (learned before, or rejected) is left out. It returns how many
// were added.
func (l *Learned) Add(props ...Proposal) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.reload(); err != nil {
		return 0, err
	}
	n := 0
	for _, p := range props {
		if p.ID == "" {
			p.setID()
		}
		if slices.ContainsFunc(l.props, func(q Proposal) bool { return q.ID == p.ID }) {
			continue
		}
		l.props = append(l.props, p)
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return n, l.save()
}

// Accept marks a proposal reviewed and kept.
func (l *Learned) Accept(id string) error { return l.set(id, Accepted) }

// Reject marks a proposal reviewed and refused: it is no longer used.
func (l *Learned) Reject(id string) error { return l.set(id, Rejected) }

func (l *Learned) set(id string, s Status) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.reload(); err != nil {
		return err
	}
	i := slices.IndexFunc(l.props, func(p Proposal) bool { return p.ID == id })
	if i < 0 {
		return fmt.Errorf("%s: no learned pattern %q", l.path, id)
	}
	l.props[i].Status = s
	return l.save()
}

// Apply returns k with the learned patterns that are not rejected (see
// the package function Apply).
func (l *Learned) Apply(k *kb.KB, site string) (*kb.KB, error) {
	return Apply(k, l.List(), site)
}

// reload reads the file again, keeping the proposals of l it has lost
// (none, unless it was edited by hand); l.mu is held.
func (l *Learned) reload() error {
	f, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer f.Close()
	disk, err := ParseLearned(l.path, f, nil)
	if err != nil {
		return err
	}
	for _, p := range l.props {
		if !slices.ContainsFunc(disk, func(q Proposal) bool { return q.ID == p.ID }) {
			disk = append(disk, p)
		}
	}
	l.props = disk
	return nil
}

// save writes the file; l.mu is held.
func (l *Learned) save() error {
	data, err := yaml.Marshal(learnedFile{Learned: l.props})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(l.path), ".learned-*.yaml")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append([]byte(learnedHeader), data...))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), l.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving %s: %w", l.path, err)
	}
	return nil
}

// Preview is what a proposal changes on one page: the objects and
// failures of the proposal's level before and after it is applied.
type Preview struct {
	Before, After                 []kb.Object
	BeforeFailures, AfterFailures []kb.Failure
}

// PreviewOn extracts doc (a stored page, read back from WARC by the
// caller) with the proposal's level of k, then with k plus the proposal,
// so that a reviewer sees what accepting it changes.
func PreviewOn(k *kb.KB, p Proposal, doc *vdoc.Doc) (*Preview, error) {
	before := k.Type(p.Type)
	if before == nil {
		return nil, fmt.Errorf("proposal %s: no type %q", p.ID, p.Type)
	}
	lb := before.Level(p.Level)
	if lb == nil {
		return nil, fmt.Errorf("proposal %s: type %s has no level %q", p.ID, p.Type, p.Level)
	}
	p.Status = Pending
	k2, err := Apply(k, []Proposal{p}, p.Site)
	if err != nil {
		return nil, err
	}
	after := k2.Type(p.Type)
	la := after.Level(p.Level)
	pv := &Preview{}
	pv.Before, pv.BeforeFailures = before.Extract(lb, doc)
	pv.After, pv.AfterFailures = after.Extract(la, doc)
	return pv, nil
}
