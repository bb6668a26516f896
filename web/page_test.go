package web

import (
	"path"
	"regexp"
	"strings"
	"testing"
)

// The page has no build step, so nothing else notices a module that
// imports a file that is not embedded, or a reference to another site
// (the page must work offline and under the server's CSP).

var (
	importRE    = regexp.MustCompile(`(?:from|import)\s*\(?\s*"(\.{1,2}/[^"]+)"`)
	staticRefRE = regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`)
	externalRE  = regexp.MustCompile(`(?i)\b(?:https?|wss?):\/\/[^\s"'` + "`" + `)]+`)
)

// embeddedPage is the page as the server serves it, file by file.
func embeddedPage(t *testing.T) map[string]string {
	t.Helper()
	static, err := loadStatic()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for name, f := range static {
		files[name] = string(f.data)
	}
	return files
}

func TestPageReferencesResolve(t *testing.T) {
	files := embeddedPage(t)
	for name, text := range files {
		switch path.Ext(name) {
		case ".js":
			for _, m := range importRE.FindAllStringSubmatch(text, -1) {
				target := path.Join(path.Dir(name), m[1])
				if _, ok := files[target]; !ok {
					t.Errorf("%s imports %s: no such embedded file", name, m[1])
				}
			}
		case ".html":
			for _, m := range staticRefRE.FindAllStringSubmatch(text, -1) {
				if _, ok := files[strings.TrimPrefix(m[1], "/static/")]; !ok {
					t.Errorf("%s refers to %s: no such embedded file", name, m[1])
				}
			}
		}
		for _, u := range externalRE.FindAllString(text, -1) {
			// XML namespaces are names, never fetched.
			if strings.HasPrefix(u, "http://www.w3.org/") {
				continue
			}
			t.Errorf("%s refers to another site: %s", name, u)
		}
	}
	if _, ok := files["app.js"]; !ok {
		t.Fatal("no app.js embedded")
	}
}

// TestPageHooks keeps the DOM hooks the browser tests and the contract
// rely on in the shell's sources.
func TestPageHooks(t *testing.T) {
	files := embeddedPage(t)
	var shell strings.Builder
	for name, text := range files {
		if !strings.HasPrefix(name, "games/") {
			shell.WriteString(text)
		}
	}
	src := shell.String()
	for _, id := range []string{"live-list", "records-list", "replay-controls", "replay-seek", "replay-speed",
		"perspective", "replay-file", "play-form", "tournament-list", "standings", "crosstable", "rating-plot",
		"status", "message", "token"} {
		if !strings.Contains(src, `id="`+id+`"`) && !strings.Contains(src, `id: "`+id+`"`) {
			t.Errorf("no element with id %q in the shell", id)
		}
	}
	for _, hook := range []string{`"clock-"`, `"data-action": action`, `"data-id"`, `"data-name"`, `"data-player"`,
		"arenaRenderTimes", `import(` + "`./games/${"} {
		if !strings.Contains(src, hook) {
			t.Errorf("shell lacks %s", hook)
		}
	}
	for _, action := range []string{"first", "prev", "play", "next", "last"} {
		if !strings.Contains(src, `b("`+action+`"`) {
			t.Errorf("no replay control %q", action)
		}
	}
}
