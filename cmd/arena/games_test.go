package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyGamesFilesNameGames proves the registry is the CLI's one list
// of games: outside games.go and gametools.go no file of the command
// imports a game's or a bot's package or spells a game's name as a
// string.
func TestOnlyGamesFilesNameGames(t *testing.T) {
	names := gameNames()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || path == "games.go" || path == "gametools.go" {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "arena/game/") || strings.HasPrefix(p, "arena/bots/") {
				t.Errorf("%s imports %s: only games.go and gametools.go may", path, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
				t.Errorf("%s: the game name %s: only games.go and gametools.go may name a game", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
	if checked < 10 || len(names) < 4 {
		t.Fatalf("checked %d files for %d game names", checked, len(names))
	}
}
