// Package api is the wire side of the control API (package control):
// the JSON types its routes answer with and the Client that the CLI, the
// TUI and outside programs steer a server with. It imports neither the
// crawler nor the store, so a client depends on the API alone.
package api
