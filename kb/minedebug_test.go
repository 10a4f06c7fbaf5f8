package kb

import (
	"encoding/json"
	"golang.org/x/net/html"
	"os"
	"strings"
	"testing"
)

func TestMineDebug(t *testing.T) {
	if os.Getenv("MINEDEBUG") == "" {
		t.Skip()
	}
	dir, pages := loadLabels(t)
	for _, p := range pages {
		if p.level != "thread" || (os.Getenv("MINEDEBUG") != "all" && os.Getenv("MINEDEBUG") != p.cms && os.Getenv("MINEDEBUG") != p.sha) {
			continue
		}
		doc := pageDoc(t, dir, p)
		x := Mine(doc, ForumPost, CaptureTime(doc))
		if x == nil {
			t.Logf("%s %s: nothing", p.cms, p.sha)
			continue
		}
		objs := x.Objects(doc)
		t.Logf("%s %s: %d objs records %s", p.cms, p.sha, len(objs), x.Records)
		for f, alts := range x.Fields {
			t.Logf("   %s: %v", f, sources(alts))
		}
		for i, o := range objs {
			if i >= 2 {
				break
			}
			c := o.Content
			if len(c) > 150 {
				c = c[:150]
			}
			t.Logf("   obj author=%q date=%v (%q) content=%q", o.Author, o.Date, o.DateText, c)
		}
	}
}

func TestMineGroups(t *testing.T) {
	sha := os.Getenv("MINEGROUPS")
	if sha == "" {
		t.Skip()
	}
	dir, pages := loadLabels(t)
	for _, p := range pages {
		if p.sha != sha {
			continue
		}
		doc := pageDoc(t, dir, p)
		m := &miner{stats: map[*html.Node]*nodeStats{}, read: map[string]bool{}, classed: map[string][]*html.Node{}}
		defer m.cousins()
		m.walk(findBody(doc.Root))
		for _, g := range m.groups {
			sc := m.groupScore(g)
			good := 0
			maxd := 0
			for _, n := range g {
				if m.good(n) {
					good++
				}
				maxd = max(maxd, m.stats[n].dates)
			}
			if len(g) > 3 || sc > 0 || strings.HasPrefix(signature(g[0]), "article") {
				t.Logf("%8.0f n=%d good=%d maxdates=%d %s parent=%s.%s", sc, len(g), good, maxd, signature(g[0]), g[0].Parent.Data, attr(g[0].Parent, "class"))
			}
		}
	}
}

func TestGenericDebug(t *testing.T) {
	if os.Getenv("GENDEBUG") == "" {
		t.Skip()
	}
	det := NewDetector(&KB{}, loadFingerprints(t))
	dir, pages := loadLabels(t)
	for _, p := range pages {
		if p.level != "thread" {
			continue
		}
		doc := pageDoc(t, dir, p)
		d, objs := det.PageObjects(doc)
		s := &threadScore{}
		var gold goldThread
		data, _ := os.ReadFile(dir + "/annotations/" + p.sha + ".json")
		json.Unmarshal(data, &gold)
		scoreThread(s, p, doc, objs, gold)
		typ := ""
		if d.Type != nil {
			typ = d.Type.ID
		}
		t.Logf("%-9s %s %s %-14s gold %3d got %3d f1 %.2f author %d/%d date %d", p.cms, p.sha, p.half(), typ, s.posts, s.extracted, s.f1/float64(s.posts), s.author, s.posts-s.noUser, s.date)
	}
}
