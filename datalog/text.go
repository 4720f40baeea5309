package datalog

// SetText records the text of a file the program was built from, so that
// diagnostics pointing into it quote its lines (AttachLines). Front ends
// that build a Program themselves, such as the cat reader, call it for
// every file they read.
func (p *Program) SetText(file, text string) {
	if p.texts == nil {
		p.texts = map[string]string{}
	}
	if old, ok := p.texts[file]; ok && old != text {
		p.texts[file] = noText
		return
	}
	p.texts[file] = text
}
