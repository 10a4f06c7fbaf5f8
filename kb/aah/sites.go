package aah

import (
	"container/list"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/internal/pebblelog"
	"github.com/mneme-archive/mneme/kb"
)

// DefaultMaxSites is how many sites a helper keeps in RAM by default.
const DefaultMaxSites = 10000

// siteTable is what the helper knows of each site, by root URL: the most
// recently used sites in RAM, the others spilled to a Pebble database in a
// directory of their own (made at the first spill, removed by close), so
// that a crawl of millions of sites does not hold them all in RAM. Its
// methods are called with the helper's lock held.
type siteTable struct {
	kb  *kb.KB // resolves a spilled site's type by its ID
	max int
	dir string // where the spill directory is made
	log io.Writer

	ram map[string]*list.Element // of lru, holding *Site
	lru *list.List               // most recently used first

	spill string // the spill directory, "" until the first spill
	db    *pebble.DB
}

func newSiteTable(k *kb.KB, max int, dir string, log io.Writer) *siteTable {
	if max <= 0 {
		max = DefaultMaxSites
	}
	return &siteTable{kb: k, max: max, dir: dir, log: log, ram: map[string]*list.Element{}, lru: list.New()}
}

// siteRecord is a spilled Site: its type by ID.
type siteRecord struct {
	Site
	Type string
}

// get returns the site of root, made or read back from the spill when
// not in RAM.
func (t *siteTable) get(root string) (*Site, error) {
	if e, ok := t.ram[root]; ok {
		t.lru.MoveToFront(e)
		return e.Value.(*Site), nil
	}
	site, err := t.read(root)
	if err != nil {
		return nil, err
	}
	if site == nil {
		site = &Site{Root: root}
	}
	t.ram[root] = t.lru.PushFront(site)
	for t.lru.Len() > t.max {
		if err := t.evict(t.lru.Back()); err != nil {
			return nil, err
		}
	}
	return site, nil
}

// read returns the spilled site of root, nil when there is none.
func (t *siteTable) read(root string) (*Site, error) {
	if t.db == nil {
		return nil, nil
	}
	v, closer, err := t.db.Get([]byte(root))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("aah: reading site %s from %s: %w", root, t.spill, err)
	}
	defer closer.Close()
	var r siteRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("aah: site %s in %s: %w", root, t.spill, err)
	}
	site := r.Site
	if r.Type != "" {
		site.Type = t.kb.Type(r.Type)
	}
	return &site, nil
}

// evict writes the site of e to the spill and drops it from RAM.
func (t *siteTable) evict(e *list.Element) error {
	site := e.Value.(*Site)
	if t.db == nil {
		dir, err := os.MkdirTemp(t.dir, "aah-sites-")
		if err != nil {
			return fmt.Errorf("aah: spilling sites: %w", err)
		}
		db, err := pebble.Open(dir, &pebble.Options{Logger: pebblelog.Logger{W: t.log, Name: "aah: site spill"}})
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("aah: spilling sites to %s: %w", dir, err)
		}
		t.spill, t.db = dir, db
	}
	v, err := json.Marshal(record(site))
	if err != nil {
		return err
	}
	// The spill lasts as long as the helper: a crash loses it anyway.
	if err := t.db.Set([]byte(site.Root), v, pebble.NoSync); err != nil {
		return fmt.Errorf("aah: spilling site %s to %s: %w", site.Root, t.spill, err)
	}
	t.lru.Remove(e)
	delete(t.ram, site.Root)
	return nil
}

func record(site *Site) siteRecord {
	r := siteRecord{Site: *site}
	if site.Type != nil {
		r.Type = site.Type.ID
	}
	r.Site.Type = nil
	return r
}

// all returns a copy of every site, by root URL.
func (t *siteTable) all() ([]Site, error) {
	var out []Site
	for e := t.lru.Front(); e != nil; e = e.Next() {
		out = append(out, *e.Value.(*Site))
	}
	if t.db != nil {
		it, err := t.db.NewIter(nil)
		if err != nil {
			return nil, err
		}
		for it.First(); it.Valid(); it.Next() {
			if _, ok := t.ram[string(it.Key())]; ok {
				continue // read back since: RAM has it as it is now
			}
			site, err := t.read(string(it.Key()))
			if err != nil {
				it.Close()
				return nil, err
			}
			out = append(out, *site)
		}
		if err := it.Close(); err != nil {
			return nil, fmt.Errorf("aah: reading sites from %s: %w", t.spill, err)
		}
	}
	slices.SortFunc(out, func(a, b Site) int { return strings.Compare(a.Root, b.Root) })
	return out, nil
}

// close removes the spill.
func (t *siteTable) close() error {
	if t.db == nil {
		return nil
	}
	err := t.db.Close()
	if rerr := os.RemoveAll(t.spill); err == nil {
		err = rerr
	}
	t.db, t.spill = nil, ""
	return err
}
