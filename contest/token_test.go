package contest

import "testing"

func TestToken(t *testing.T) {
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if a == b || len(a) != 64 {
		t.Errorf("tokens %q and %q", a, b)
	}
	if HashToken(a) == a || HashToken(a) != HashToken(a) || HashToken(a) == HashToken(b) {
		t.Error("HashToken is not a stable one-way hash")
	}
}
