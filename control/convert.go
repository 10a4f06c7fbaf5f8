package control

import (
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/adapt"
)

// The crawler's and the knowledge base's types as the API sends them.

func toStatus(s crawler.Status, live bool) api.Status {
	out := api.Status{
		ID: s.ID, State: s.State, Reason: s.Reason, Live: live, Incremental: s.Incremental, Started: s.Started,
		ElapsedSeconds: s.Elapsed.Seconds(), Fetched: s.Fetched, Bytes: s.Bytes, Revisits: s.Revisits,
		Links: s.Links, Errors: s.Errors, Queued: s.Queued, Waiting: s.Waiting, InFlight: s.InFlight, Succeeded: s.Succeeded,
		Failed: s.Failed, Disregarded: s.Disregard, Queues: s.Queues, QueueStates: map[string]int64{},
		Recent: make([]api.Fetch, 0, len(s.Recent)),
	}
	if out.Errors == nil {
		out.Errors = map[string]int64{}
	}
	if secs := s.Elapsed.Seconds(); secs > 0 {
		out.PagesPerSecond, out.BytesPerSecond = float64(s.Fetched)/secs, float64(s.Bytes)/secs
	}
	for k, v := range s.QueueState {
		out.QueueStates[string(k)] = v
	}
	for _, f := range s.Recent {
		out.Recent = append(out.Recent, api.Fetch{
			URL: f.URL, Queue: f.Queue, Hops: f.Hops, Via: f.Via, Claimed: f.Claimed, Status: f.Status,
			DurationMS: ms(f.Duration), Size: f.Size, MimeType: f.MimeType, Outcome: f.Outcome,
			Revisit: f.Revisit, Links: f.Links,
		})
	}
	return out
}

func toQueue(q frontier.QueueStats) api.Queue {
	return api.Queue{
		Key: q.Key, State: string(q.State), Size: q.Size, Waiting: q.Waiting, InFlight: q.InFlight, Valence: q.Valence,
		Budget: q.Budget, BudgetUsed: q.BudgetUsed, NextReady: q.NextReady, NextDue: q.NextDue, LastFetchMS: ms(q.LastFetch),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func toProposal(p adapt.Proposal) api.Proposal {
	return api.Proposal{
		ID: p.ID, Status: api.ReviewStatus(p.Status), Site: p.Site, Type: p.Type, Level: p.Level, Action: p.Action,
		Object: string(p.Object), Field: string(p.Field), Target: p.Target, Pattern: p.Pattern, Replaces: p.Replaces,
		Method: p.Method, Relaxations: p.Relaxations, Pages: p.Pages, Checked: p.Checked, Learned: p.Learned,
	}
}

func toExtractions(pv adapt.Preview) api.Extractions {
	return api.Extractions{
		Before: toObjects(pv.Before), After: toObjects(pv.After),
		BeforeFailures: toFailures(pv.BeforeFailures), AfterFailures: toFailures(pv.AfterFailures),
	}
}

func toObjects(objs []kb.Object) []api.Object {
	if objs == nil {
		return nil
	}
	out := make([]api.Object, len(objs))
	for i, o := range objs {
		out[i] = api.Object{
			Kind: string(o.Kind), IRI: o.IRI, ID: o.ID, Title: o.Title, Author: o.Author, AuthorURL: o.AuthorURL,
			Date: o.Date, DateText: o.DateText, Modified: o.Modified, Content: o.Content, Tags: o.Tags,
			Categories: o.Categories, ReplyTo: o.ReplyTo, Note: o.Note, VersionOf: o.VersionOf,
		}
	}
	return out
}

func toFailures(fs []kb.Failure) []api.Failure {
	if fs == nil {
		return nil
	}
	out := make([]api.Failure, len(fs))
	for i, f := range fs {
		out[i] = api.Failure{Type: f.Type, Level: f.Level, Action: f.Action, Field: string(f.Field), Patterns: f.Patterns}
	}
	return out
}

// toLog reads crawl.log lines into their fields; a line that does not
// parse gets a zero entry.
func toLog(lines []string) api.Log {
	out := api.Log{Lines: lines, Entries: make([]api.LogEntry, len(lines))}
	for i, line := range lines {
		if e, err := crawllog.Parse(line); err == nil {
			out.Entries[i] = api.LogEntry{Time: e.Time, Status: e.Status, Size: e.Size, URI: e.URI,
				HopPath: e.HopPath, Via: e.Via, MimeType: e.MimeType}
		}
	}
	return out
}
