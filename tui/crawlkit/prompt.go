package crawlkit

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// Prompt is a one-line question a screen opens with a key (a new crawl's
// seeds, a campaign's new query): enter hands what was typed to the
// screen, esc drops it.
type Prompt struct {
	input  textinput.Model
	active bool
}

// NewPrompt returns a closed prompt that asks with label.
func NewPrompt(label string) Prompt {
	in := textinput.New()
	in.Prompt = label
	return Prompt{input: in}
}

// Open empties the prompt and gives it the keys.
func (p *Prompt) Open() tea.Cmd {
	p.active = true
	p.input.SetValue("")
	return p.input.Focus()
}

// Active says whether the prompt has the keys.
func (p *Prompt) Active() bool { return p.active }

// Key edits the prompt; on enter it closes and returns submit of what was
// typed.
func (p *Prompt) Key(msg tea.KeyPressMsg, submit func(string) tea.Cmd) tea.Cmd {
	switch msg.String() {
	case "esc":
		p.close()
		return nil
	case "enter":
		p.close()
		return submit(p.input.Value())
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}

func (p *Prompt) close() {
	p.active = false
	p.input.Blur()
}

// View is the prompt's line.
func (p *Prompt) View() string { return p.input.View() }
