package bot

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// refLines splits data as ReadLine promises to: lines end at LF, CR or
// CRLF; an unterminated tail is not a line; a line longer than max stops
// the reading with ErrLineTooLong.
func refLines(data string, max int) (lines []string, tooLong bool) {
	for len(data) > 0 {
		i := strings.IndexAny(data, "\r\n")
		if i < 0 {
			return lines, len(data) > max
		}
		if i > max {
			return lines, true
		}
		lines = append(lines, data[:i])
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return lines, false
}

// readAll feeds data through a real pipe in chunks of the given size and
// reads lines with ReadLine until the end.
func readAll(t *testing.T, data string, max, chunk int) (lines []string, tooLong bool) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		defer w.Close()
		for i := 0; i < len(data); i += chunk {
			w.WriteString(data[i:min(i+chunk, len(data))])
		}
	}()
	p := &Process{stdout: r, maxLine: max, buf: make([]byte, 0, 4), done: make(chan struct{})}
	close(p.done) // no process: the end of input reports an exit
	p.group = &Group{}
	deadline := time.Now().Add(10 * time.Second)
	for {
		line, err := p.ReadLine(deadline)
		if err != nil {
			return lines, errors.Is(err, ErrLineTooLong)
		}
		lines = append(lines, line)
	}
}

func TestReadLineChunks(t *testing.T) {
	data := "a\r\nbb\n\nccc\rdddd\r\r\neeeee\n" + strings.Repeat("f", 20) + "\n"
	for chunk := 1; chunk < 8; chunk++ {
		got, tooLong := readAll(t, data, 10, chunk)
		want, wantTooLong := refLines(data, 10)
		if strings.Join(got, "|") != strings.Join(want, "|") || tooLong != wantTooLong {
			t.Fatalf("chunk %d: %q %v, want %q %v", chunk, got, tooLong, want, wantTooLong)
		}
	}
}

// FuzzReadLine checks the line splitting against refLines for any bytes,
// cap and chunking.
func FuzzReadLine(f *testing.F) {
	f.Add("a\r\nb\nc\rd", uint8(4), uint8(1))
	f.Add("\r\r\n\n", uint8(1), uint8(3))
	f.Add("12345678901\n", uint8(10), uint8(5))
	f.Fuzz(func(t *testing.T, data string, max, chunk uint8) {
		m, c := int(max)%64+1, int(chunk)%16+1
		got, tooLong := readAll(t, data, m, c)
		want, wantTooLong := refLines(data, m)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || tooLong != wantTooLong {
			t.Fatalf("max %d chunk %d: got %q %v, want %q %v", m, c, got, tooLong, want, wantTooLong)
		}
	})
}
