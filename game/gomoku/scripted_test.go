package gomoku

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a scripted brain: when ARENA_SCRIPTED_BRAIN
// is set, TestMain runs the brain instead of the tests. The brain logs
// every byte it receives (pipe) or every file it finds (file protocol) to
// ARENA_SCRIPTED_LOG and answers the moves of ARENA_SCRIPTED_MOVES in
// order ("x,y;x,y;..."). ARENA_SCRIPTED_INFO_WORK (a duration) makes the
// pipe brain spend that long on INFO max_memory, as a brain resizing its
// hash does.
func TestMain(m *testing.M) {
	switch os.Getenv("ARENA_SCRIPTED_BRAIN") {
	case "pipe":
		os.Exit(scriptedPipeBrain())
	case "file":
		os.Exit(scriptedFileBrain())
	}
	code := m.Run()
	if testBrainDir != "" {
		os.RemoveAll(testBrainDir)
	}
	os.Exit(code)
}

func scriptedMoves() []string { return strings.Split(os.Getenv("ARENA_SCRIPTED_MOVES"), ";") }

func scriptedPipeBrain() int {
	log, err := os.OpenFile(os.Getenv("ARENA_SCRIPTED_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 2
	}
	defer log.Close()
	moves := scriptedMoves()
	in := bufio.NewReader(io.TeeReader(os.Stdin, log))
	out := bufio.NewWriter(os.Stdout)
	answered := 0
	answer := func() {
		answered++
		fmt.Fprintf(out, "MESSAGE scripted move %d\r\n%s\r\n", answered, moves[0])
		moves = moves[1:]
	}
	infoWork, _ := time.ParseDuration(os.Getenv("ARENA_SCRIPTED_INFO_WORK"))
	inBoard := false
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch {
		case inBoard:
			if word == "DONE" {
				inBoard = false
				answer()
			}
		case word == "START" || word == "RECTSTART":
			fmt.Fprint(out, "OK\r\n")
		case word == "INFO" && strings.HasPrefix(strings.TrimSpace(line), "INFO max_memory"):
			time.Sleep(infoWork)
		case word == "ABOUT":
			fmt.Fprint(out, "name=\"scripted\", version=\"1.0\"\r\n")
		case word == "BEGIN" || word == "TURN":
			answer()
		case word == "BOARD":
			inBoard = true
		case word == "END":
			out.Flush()
			return 0
		}
		out.Flush()
	}
}

func scriptedFileBrain() int {
	log, err := os.OpenFile(os.Getenv("ARENA_SCRIPTED_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 2
	}
	defer log.Close()
	fmt.Fprintf(log, "== argv[0] is absolute: %v\n", filepath.IsAbs(os.Args[0]))
	for _, name := range []string{fileBoard, fileTurn, fileTimeouts, fileInfo, fileMsg} {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(log, "== %s missing\n", name)
			continue
		}
		fmt.Fprintf(log, "== %s\n%s", name, data)
	}
	// The brain keeps its place in the script in its own sub-folder, as
	// the protocol allows.
	os.Mkdir("scripted", 0o755)
	pos := 0
	if data, err := os.ReadFile("scripted/pos"); err == nil {
		pos, _ = strconv.Atoi(string(data))
	}
	os.WriteFile("scripted/pos", []byte(strconv.Itoa(pos+1)), 0o644)
	os.WriteFile(fileMsg, []byte("scripted move\n"), 0o644)
	os.WriteFile(fileTurn, []byte(scriptedMoves()[pos]+"\r\n"), 0o644)
	return 0
}
