package console

import "charm.land/bubbles/v2/key"

// keys are the console's bindings; keyHelp lists them for the help
// overlay.
var keys = struct {
	Run, Cancel, Edit, HistPrev, HistNext, Save, Open, Detail, Export, Enter, Back key.Binding
}{
	Run:      key.NewBinding(key.WithKeys("ctrl+r", "f5"), key.WithHelp("ctrl+r/F5", "run the query")),
	Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel a running query; leave the editor")),
	Edit:     key.NewBinding(key.WithKeys("e", "i"), key.WithHelp("e/i", "edit the query")),
	HistPrev: key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p/ctrl+n", "previous/next query in the history")),
	HistNext: key.NewBinding(key.WithKeys("ctrl+n")),
	Save:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save the query")),
	Open:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open a saved query")),
	Detail:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "row detail (edit when no rows)")),
	Export:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export results (.csv .tsv .json)")),
	Enter:    key.NewBinding(key.WithKeys("enter")),
	Back:     key.NewBinding(key.WithKeys("esc")),
}

func keyHelp() []key.Binding {
	k := keys
	return []key.Binding{k.Run, k.Cancel, k.Edit, k.HistPrev, k.Save, k.Open, k.Detail, k.Export}
}
