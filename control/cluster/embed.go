package cluster

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Embedded starts a NATS server with JetStream inside this process,
// listening on listen (host:port; port 0 picks a free one) and keeping its
// streams in dir: the default of a cluster on one machine, where one node
// embeds the server and the others connect to it. SyncAlways makes the
// server sync every stored message (what a node forwards survives a power
// loss, not just a crash of the process), at some cost in forwarding
// throughput. Shut it down with Shutdown.
func Embedded(dir, listen string, syncAlways bool) (*server.Server, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: listen address %q: %w", listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: listen address %q: bad port", listen)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	s, err := server.NewServer(&server.Options{
		ServerName: "mneme", Host: host, Port: p, JetStream: true, StoreDir: dir,
		SyncAlways: syncAlways, NoSigs: true, NoLog: true,
	})
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: %w", err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("embedded NATS on %s: not ready after 10 s (is the port taken?)", listen)
	}
	return s, nil
}
