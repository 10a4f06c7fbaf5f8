// Package frontier is the crawler's persistent URL frontier: it decides
// which URL is fetched next and remembers every URL it has ever seen.
//
// # Model
//
// URLs are grouped into queues, one per politeness key (the host by default;
// the caller computes the key, e.g. with crawler/canon, so an IP or
// pay-level-domain key works the same way). Within a queue URLs are served
// by score (highest first) and then by insertion counter, which is the
// precedence-then-counter order of Heritrix's queue keys. A queue is served
// when it is ready: it holds URLs, fewer of them are in flight than its
// valence, its politeness snooze has passed and its budget is not spent.
// Among ready queues the one that became ready first is served first.
//
// Every URL ever scheduled has a record in a URL index keyed by a 128-bit
// hash of its canonical form. The index is the seen-set (a URL is scheduled
// once) and also maps a queued URL to its queue entry, so that a later
// sighting can update its score with an [UpdateFunc] (FIRST, LAST, MAX, SUM,
// AVG), and so that a URL can be blacklisted (never fetched, later updates
// ignored).
//
// # Seen-set and batching
//
// Checking each discovered link with a random disk read does not scale to
// 100M URLs. As in DRUM (IRLbot), candidates are buffered in memory up to
// [Options.SeenBatch], then sorted by hash and merged with the on-disk
// seen-set in one sequential pass that checks and updates together:
// duplicates within the batch collapse into one URL whose sightings apply in
// order (score updates, or nothing for URLs no longer queued), and only the
// new URLs go on to the queues. SeenBatch 1 applies every
// [Frontier.Schedule] immediately.
//
// The seen-set is DRUM's sorted file kept as a few sorted runs (runs.go):
// each pass with many new URLs writes their records, already in hash order,
// as a new run, ingested into Pebble under a fresh run id (so it lands in
// the bottom level and Pebble never compacts it). A run has record pages
// (1,024 fixed-size records each) and index pages (their 4-byte
// fingerprints, a tenth of the run's size, which the block cache keeps). The pass walks each run's index page by page and finds a
// fingerprint by interpolation inside a page, so a lookup costs a few
// comparisons in memory, not a Pebble seek, and a new URL, the common
// case, reads no record page; runs of one size class are merged
// sequentially once four have piled up, so a lookup visits a few runs and a
// record is rewritten a few times. A record that changes later (claim,
// completion, score update, blacklist) is written to an overlay of ordinary
// Pebble keys that takes precedence over the runs. A bounded cache of the
// records the last passes read or wrote (reccache.go) answers first: a
// crawl that applies each page's links at once (a focused crawl) sees the
// same navigation links on every page. The rest of a pass is
// written in key order without reading anything first: the queue keys and
// the journal of the touched queues in one batch, the new URLs' entries in
// one ingested table.
//
// The hash is the first 128 bits of SHA-256 of the URL. With n = 10^8 URLs
// the probability that any two collide is about n²/2^129 ≈ 1.5·10^-23; a
// 64-bit hash would give n²/2^65 ≈ 2.7·10^-4, i.e. a real chance of silently
// dropping a URL in a large crawl, for a saving of 8 bytes per URL on disk.
//
// # Persistence and crash safety
//
// All state lives in one Pebble database; every operation is one atomic
// batch. A batch appends the records of the queues it changed to a queue
// journal as one value, not one key per queue (a pass touches thousands);
// the journal is checkpointed into the queues' own keys once it outgrows
// the queue table a few times over, and Open replays it (journal.go). Scheduled candidates are written to a pending log with the next
// synced write (Complete, Sync, Close), and the seen pass deletes them and
// applies them in one batch. The exceptions are the bulk of a pass with many
// new URLs, their entries (URL, hops, via, keyed by insertion counter) and
// their seen-set run, written as tables and ingested just before the batch,
// which skips the write-ahead log, memtables and compactions; and run
// merges, ingested before the batch that switches to the merged run. If such
// a batch is lost in a crash, what was ingested is unreferenced: Open
// deletes unreferenced runs, and replaying the pending log assigns the same
// counters and writes the entries again. Claiming a URL moves it from its
// queue into an in-flight set; completing it removes it. On [Open],
// in-flight URLs go back to their queues at their old positions, so after a
// crash nothing is lost and only what was in flight is fetched again. The
// crawler must write its WARC and RDF output and schedule the page's links
// before it calls [Frontier.Complete].
//
// Pebble appends each batch to its write-ahead log. Without fsync, the
// record stays in Pebble's in-process WAL buffer until a 32 KiB block fills
// or a synced write forces it out, so a killed process (kill -9) loses the
// same as a power failure: the unsynced tail of the log. The log replays as
// a prefix, so what is lost is always the most recent operations, and
// Complete is synced by default: after a crash every URL whose Complete
// returned is done, and only claims made since (in flight, or completed
// without returning) are fetched again. Schedule writes nothing by itself
// and claims are not synced; links scheduled before a page's Complete become
// durable with it, and a lost claim merely leaves its URL queued. Input that
// cannot be rediscovered (seeds, injected URLs) is made durable with
// [Frontier.Sync]. [Options.NoSyncCompletions] trades the fsync per
// completion for the risk of fetching the last few completed URLs again
// after a crash.
//
// # Memory
//
// What grows with the number of URLs lives only in Pebble. RAM holds the
// Pebble block cache and memtables (both sized by [Options]), the pending
// buffer and the seen pass's arrays (at most SeenBatch candidates), the
// record cache (65,536 records), and one small entry per queue (key,
// counters and a slot in the ready heap, about 150 bytes); queue entries are
// persisted too and rebuilt on Open.
//
// # Incremental crawls
//
// With [Options.Incremental], URLs are never done: a successful completion
// may give a URL its time of next processing ([Outcome].Due), and the URL
// then waits in its queue in a key space of its own, ordered by due time
// (r qid due seq), while its entry stays where it is. A queue holding only
// waiting URLs is ready when its first URL is due and its politeness
// snooze has passed; URLs not yet visited (and retries) are served before
// waiting ones. The queue record keeps the count of waiting URLs and the
// first due time, so readiness needs no disk read. The crawler's history
// of a URL (its revisit state) and its data for a queue (the revisit
// policy's statistics) are written with the completion and handed back by
// the next [Claim] and [Frontier.QueueData]. Failed and disregarded URLs
// are parked as before. [Frontier.Expedite] brings waiting URLs forward
// (the embedded resources of a page that changed). A revisit claimed when
// the process died goes back to its queue as a URL to visit, with its
// history.
package frontier
