package revisit

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestEvaluatorNext(t *testing.T) {
	e := DefaultEvaluator()
	day := 24 * time.Hour
	for _, c := range []struct {
		name          string
		prev, overdue time.Duration
		status        Status
		want          time.Duration
	}{
		{"first visit takes the initial wait", 0, 0, Changed, day},
		{"first visit unchanged also initial", 0, 0, Unchanged, day},
		{"unknown change takes the default wait", 10 * day, 0, Unknown, 3 * day},
		{"changed divides by 1.5", 3 * time.Hour, 0, Changed, 2 * time.Hour},
		{"unchanged multiplies by 1.5", 2 * time.Hour, 0, Unchanged, 3 * time.Hour},
		{"minimum bound", 80 * time.Minute, 0, Changed, time.Hour},
		{"maximum bound", 20 * day, 0, Unchanged, 28 * day},
		{"overdue ignored by default", 2 * time.Hour, 10 * time.Hour, Unchanged, 3 * time.Hour},
	} {
		if got := e.Next(c.prev, c.overdue, c.status); got != c.want {
			t.Errorf("%s: Next(%v, %v, %v) = %v, want %v", c.name, c.prev, c.overdue, c.status, got, c.want)
		}
	}
	e.UseOverdue = true
	if got := e.Next(2*time.Hour, 4*time.Hour, Changed); got != 4*time.Hour {
		t.Errorf("with overdue: (2h + 4h) / 1.5 = %v, want 4h", got)
	}
	e.ChangedFactor, e.UnchangedFactor = 2, 3
	if got := e.Next(4*time.Hour, 0, Changed); got != 2*time.Hour {
		t.Errorf("changed factor 2: %v, want 2h", got)
	}
	if got := e.Next(2*time.Hour, 0, Unchanged); got != 6*time.Hour {
		t.Errorf("unchanged factor 3: %v, want 6h", got)
	}
	if got := e.Next(time.Duration(1<<62), 0, Unchanged); got != 28*day {
		t.Errorf("huge wait: %v, want the maximum", got)
	}
}

func TestDefaultsFollowHeritrix(t *testing.T) {
	w := DefaultWaits()
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mime    string
		name    string
		initial time.Duration
	}{
		{"text/html; charset=utf-8", "text", 12 * time.Hour},
		{"image/png", "image", 48 * time.Hour},
		{"application/pdf", "default", 24 * time.Hour},
		{"", "default", 24 * time.Hour},
	} {
		e := w.For("example.org", c.mime)
		if e.Name != c.name || e.Initial != c.initial || e.Min != time.Hour || e.Max != 28*24*time.Hour ||
			e.Default != 72*time.Hour || e.ChangedFactor != 1.5 || e.UnchangedFactor != 1.5 || e.UseOverdue {
			t.Errorf("%q: got %+v", c.mime, e)
		}
	}
}

func TestHostOverrides(t *testing.T) {
	fast := DefaultEvaluator()
	fast.Name, fast.Initial, fast.Min = "news", 10*time.Minute, time.Minute
	w := DefaultWaits()
	w.Hosts = map[string][]Evaluator{"news.example": {fast}}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	if e := w.For("News.Example", "text/html"); e.Name != "news" {
		t.Errorf("override host: got %q", e.Name)
	}
	if e := w.For("other.example", "text/html"); e.Name != "text" {
		t.Errorf("other host: got %q", e.Name)
	}
}

func TestWaitsValidate(t *testing.T) {
	bad := DefaultEvaluator()
	bad.Min, bad.Max = 2*time.Hour, time.Hour
	noCatchAll := DefaultEvaluator()
	noCatchAll.ContentType = regexp.MustCompile(`^text/`)
	shrink := DefaultEvaluator()
	shrink.UnchangedFactor = 0.5
	for _, c := range []struct {
		w    Waits
		want string
	}{
		{Waits{}, "last evaluator must match every content type"},
		{Waits{Stack: []Evaluator{noCatchAll}}, "last evaluator must match every content type"},
		{Waits{Stack: []Evaluator{bad}}, "min (2h0m0s) <= max (1h0m0s)"},
		{Waits{Stack: []Evaluator{shrink}}, "factors must be >= 1"},
		{Waits{Stack: DefaultEvaluators(), Hosts: map[string][]Evaluator{"x.example": {bad}}}, "host x.example"},
	} {
		err := c.w.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want it to mention %q", c.w, err, c.want)
		}
	}
}
