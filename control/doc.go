// Package control is the control API of the crawls of one data folder: an
// http.Handler, served by mneme serve beside the SPARQL endpoint, that
// lists and creates crawls, starts, pauses, resumes and stops them in
// process, reports their live status (polled or as a server-sent event
// stream), per-host queues, best-scored queued URLs, crawl.log tail and
// WARC files, edits the seeds and scope of an open crawl, mounts the URL
// injection service, and reviews the patterns the knowledge base learned
// (list, preview on a stored page, accept, reject). It is the daemon's
// service layer, above the crawler and the knowledge base: crawls today,
// campaigns and analyses tomorrow. Its wire types and the Client that the
// CLI and TUI steer it with are package control/api. Every write needs
// the bearer token of the data folder; errors are JSON {"error": …,
// "detail": …}.
//
// Routes (ID is a crawl id):
//
//	GET   /api/crawls                   every crawl of the data folder
//	POST  /api/crawls                   create one from a YAML spec (body)
//	GET   /api/crawls/ID                status and spec
//	GET   /api/crawls/ID/status         status
//	POST  /api/crawls/ID/start          run (a stopped crawl resumes)
//	POST  /api/crawls/ID/pause          stop claiming URLs
//	POST  /api/crawls/ID/resume         claim again
//	POST  /api/crawls/ID/stop           end the run; returns once ended
//	GET   /api/crawls/ID/events         status every second (SSE) until the run ends
//	GET   /api/crawls/ID/queues?limit=N per-host queue states
//	GET   /api/crawls/ID/frontier?limit=N  best-scored queued URLs (open crawls)
//	GET   /api/crawls/ID/log?lines=N    last crawl.log lines
//	GET   /api/crawls/ID/warcs          WARC files written
//	POST  /api/crawls/ID/seeds          {"add": [URL…]}: more seeds
//	PATCH /api/crawls/ID/scope          YAML or JSON scope fields to change
//	POST  /crawls/ID/urls               URL injection (package inject)
//	GET   /api/crawls/ID/focus          a focused crawl's weights, topic terms, harvest ratio over time, reference terms
//	GET   /api/crawls/ID/focus/explain?url=U  each module's value and contribution to a URL's score
//	PATCH /api/crawls/ID/focus/weights  {"module": weight…}: new weights; the queued URLs are rescored
//	POST  /api/crawls/ID/focus/terms    {"accept": [term…], "drop": [term…]}: the reference crawl's proposals
//	GET   /api/learned                  patterns learned by kb/adapt (DATA/kb/learned.yaml)
//	GET   /api/learned/PID/preview?url=U  a stored page extracted without and with one
//	POST  /api/learned/PID/accept       keep it (reviewed)
//	POST  /api/learned/PID/reject       stop using it
//	POST  /api/analyses                 {"crawl": ID}: analyse a crawl's texts (package analysis)
//	GET   /api/analyses[/ID]            analysis jobs: state and progress
package control
