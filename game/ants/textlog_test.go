package ants

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TextLog must read back exactly what was written, whatever the sizes of
// the pieces and of its chunks.
func TestTextLog(t *testing.T) {
	var log TextLog
	var want bytes.Buffer
	for i := 0; i < 3000; i++ {
		piece := strings.Repeat(string(rune('a'+i%26)), (i*37)%700)
		if i%2 == 0 {
			io.WriteString(&log, piece)
		} else {
			log.Write([]byte(piece))
		}
		want.WriteString(piece)
		if i%1000 == 999 && !bytes.Equal(log.Bytes(), want.Bytes()) {
			t.Fatalf("after %d pieces: the text differs", i+1)
		}
	}
	if log.Len() != want.Len() || log.String() != want.String() {
		t.Fatalf("got %d bytes, want %d", log.Len(), want.Len())
	}
	var empty TextLog
	if empty.Len() != 0 || empty.String() != "" || empty.Bytes() != nil {
		t.Fatal("an empty log is not empty")
	}
}
