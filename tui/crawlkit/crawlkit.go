// Package crawlkit is what the TUI's crawl screens (crawls, crawl detail,
// frontier; the review screen too) share: calls of the control API run
// as commands with a timeout, the lifecycle actions, the y/n question
// before a stop or a blacklisting, the poll timer, and the formatting of
// states, sizes, rates and times, and the one-line prompt a screen opens
// with a key.
package crawlkit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/screen"
)

// Timeout bounds one call of the control API; a stop waits for the run
// to end, which takes the fetches in flight.
const Timeout = 30 * time.Second

// Keys are the lifecycle bindings of the crawl screens.
var Keys = struct {
	Start, Pause, Resume, Stop key.Binding
}{
	Start:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "start (a stopped crawl resumes)")),
	Pause:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
	Resume: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resume")),
	Stop:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "stop (asks first)")),
}

// LifecycleHelp lists Keys for a help overlay.
func LifecycleHelp() []key.Binding {
	return []key.Binding{Keys.Start, Keys.Pause, Keys.Resume, Keys.Stop}
}

// ActionMsg is the answer to a lifecycle action.
type ActionMsg struct {
	ID, Action string
	Status     api.Status
	Err        error
}

// Call runs one call of the control API as a command, bounded by
// Timeout; do turns its answer into the screen's message.
func Call(do func(ctx context.Context) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), Timeout)
		defer cancel()
		return do(ctx)
	}
}

// Action runs start, pause, resume or stop on a crawl.
func Action(c *api.Client, id, action string) tea.Cmd {
	return Call(func(ctx context.Context) tea.Msg {
		s, err := c.Do(ctx, id, action)
		return ActionMsg{ID: id, Action: action, Status: s, Err: err}
	})
}

// Words says what went wrong in a call of the control API for a reader,
// not as an HTTP exchange: the server's own message without its status
// code, or what a failed connection means.
func Words(err error) string {
	var ae *api.APIError
	var op *net.OpError
	switch {
	case errors.As(err, &ae):
		msg := strings.TrimSpace(ae.Message)
		switch {
		case ae.Code == http.StatusUnauthorized || ae.Code == http.StatusForbidden:
			return "the server refused the token (give the right one with --token, or see DATA/token)"
		case msg != "":
			return msg
		}
		return "the server failed (" + strings.ToLower(http.StatusText(ae.Code)) + ")"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("the server did not answer within %v", Timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the server is not running (connection refused)"
	case errors.As(err, &op):
		return "the server cannot be reached: " + op.Err.Error()
	}
	return err.Error()
}

// Report puts the outcome of an action in the status bar.
func Report(msg ActionMsg) tea.Cmd {
	if msg.Err != nil {
		return screen.Status(fmt.Sprintf("%s %s: %s", msg.Action, msg.ID, Words(msg.Err)), true)
	}
	return screen.Status(fmt.Sprintf("%s %s: %s", msg.Action, msg.ID, msg.Status.State), false)
}

// Lifecycle maps a key to its action on crawl id: start, pause and
// resume at once, stop after a question (set in ask). It reports whether
// the key was a lifecycle one.
func Lifecycle(msg tea.KeyPressMsg, c *api.Client, id string, ask *Question) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, Keys.Start):
		return Action(c, id, "start"), true
	case key.Matches(msg, Keys.Pause):
		return Action(c, id, "pause"), true
	case key.Matches(msg, Keys.Resume):
		return Action(c, id, "resume"), true
	case key.Matches(msg, Keys.Stop):
		*ask = Question{Text: "Stop crawl " + id + "?", Yes: Action(c, id, "stop")}
		return nil, true
	}
	return nil, false
}

// Question is a y/n question a screen asks before an action; the zero
// Question asks nothing.
type Question struct {
	Text string
	Yes  tea.Cmd
}

// Asking reports whether the question is shown.
func (q *Question) Asking() bool { return q.Text != "" }

// Key answers the question: y runs Yes, n or esc drops it; other keys
// are ignored while it is asked.
func (q *Question) Key(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "y", "Y":
		cmd := q.Yes
		*q = Question{}
		return cmd
	case "n", "N", "esc":
		*q = Question{}
	}
	return nil
}

// View is the question's line.
func (q *Question) View() string { return screen.Error.Render(q.Text + " (y/n)") }

// Tick asks for the next poll after d, with the poll's generation so
// that a screen keeps one poll chain however often it refreshes.
func Tick(d time.Duration, gen int, msg func(gen int) tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg(gen) })
}
