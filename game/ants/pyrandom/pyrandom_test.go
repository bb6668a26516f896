package pyrandom

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// referenceDir is the CPython reference values in the repository's
// testdata (testdata/conformance/pyrandom at the module root); a missing
// folder fails the test.
func referenceDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "conformance", "pyrandom"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("reference data missing (testdata/conformance/pyrandom in the repository): %v", err)
	}
	return d
}

type randCase struct {
	Seed        json.Number            `json:"seed"`
	Random      []float64              `json:"random"`
	Getrandbits map[string][]uint64    `json:"getrandbits"`
	Randrange   [][3]int64             `json:"randrange"`
	Randint     []int64                `json:"randint_1_6"`
	Shuffle10   []int                  `json:"shuffle_10"`
	Shuffle3    []int                  `json:"shuffle_3"`
	Choice      []string               `json:"choice_abc"`
	Interleaved [][2]json.RawMessage   `json:"interleaved"`
	Extra       map[string]interface{} `json:"-"`
}

func loadCases(t *testing.T) []randCase {
	data, err := os.ReadFile(filepath.Join(referenceDir(t), "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []randCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	return file.Cases
}

func seeded(t *testing.T, c randCase) *Rand {
	s, err := strconv.ParseInt(string(c.Seed), 10, 64)
	if err != nil {
		t.Fatalf("seed %s: %v", c.Seed, err)
	}
	return New(s)
}

func TestAgainstCPython(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(string(c.Seed), func(t *testing.T) {
			r := seeded(t, c)
			for i, want := range c.Random {
				if got := r.Random(); got != want {
					t.Fatalf("random()[%d] = %v, want %v", i, got, want)
				}
			}
			// The lists continue one sequence, keys in increasing order.
			r = seeded(t, c)
			for _, bits := range sortedBits(c.Getrandbits) {
				want := c.Getrandbits[strconv.Itoa(bits)]
				for i, w := range want {
					if got := r.Getrandbits(bits); got != w {
						t.Fatalf("getrandbits(%d)[%d] = %d, want %d", bits, i, got, w)
					}
				}
			}
			r = seeded(t, c)
			for i, rr := range c.Randrange {
				if got := r.Randrange(rr[0], rr[1]); got != rr[2] {
					t.Fatalf("randrange(%d, %d) #%d = %d, want %d", rr[0], rr[1], i, got, rr[2])
				}
			}
			r = seeded(t, c)
			for i, want := range c.Randint {
				if got := r.Randint(1, 6); got != want {
					t.Fatalf("randint(1, 6) #%d = %d, want %d", i, got, want)
				}
			}
			for _, sc := range []struct {
				n    int
				want []int
			}{{10, c.Shuffle10}, {3, c.Shuffle3}} {
				r := seeded(t, c)
				got := shuffled(r, sc.n)
				if !reflect.DeepEqual(got, sc.want) {
					t.Fatalf("shuffle(range(%d)) = %v, want %v", sc.n, got, sc.want)
				}
			}
			r = seeded(t, c)
			for i, want := range c.Choice {
				if got := string("abcdefg"[r.Choice(7)]); got != want {
					t.Fatalf("choice(abcdefg) #%d = %s, want %s", i, got, want)
				}
			}
			r = seeded(t, c)
			for i, step := range c.Interleaved {
				var op string
				if err := json.Unmarshal(step[0], &op); err != nil {
					t.Fatal(err)
				}
				var got interface{}
				var want interface{}
				switch op {
				case "random":
					got = r.Random()
					var w float64
					_ = json.Unmarshal(step[1], &w)
					want = w
				case "shuffle4":
					got = shuffled(r, 4)
					var w []int
					_ = json.Unmarshal(step[1], &w)
					want = w
				case "randrange_0_7":
					got = r.Randrange(0, 7)
					var w int64
					_ = json.Unmarshal(step[1], &w)
					want = w
				default:
					t.Fatalf("unknown step %q", op)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("interleaved #%d %s = %v, want %v", i, op, got, want)
				}
			}
		})
	}
}

func sortedBits(m map[string][]uint64) []int {
	var out []int
	for k := range m {
		v, _ := strconv.Atoi(k)
		out = append(out, v)
	}
	sort.Ints(out)
	return out
}

func shuffled(r *Rand, n int) []int {
	x := make([]int, n)
	for i := range x {
		x[i] = i
	}
	r.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

func TestSetOrderAgainstCPython(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(referenceDir(t), "set_order.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		TupleHash [][3]int64 `json:"tuple_hash"`
		SetOrder  []struct {
			Insert [][2]int `json:"insert"`
			List   [][2]int `json:"list_of_set"`
		} `json:"set_order"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, h := range file.TupleHash {
		if got := TupleHash(h[0], h[1]); got != h[2] {
			t.Errorf("hash((%d, %d)) = %d, want %d", h[0], h[1], got, h[2])
		}
	}
	for i, c := range file.SetOrder {
		if got := SetOrder(c.Insert); !reflect.DeepEqual(got, c.List) {
			t.Errorf("case %d: list(set(%v)) = %v, want %v", i, c.Insert, got, c.List)
		}
	}
}

func TestSetOrderDropsDuplicates(t *testing.T) {
	got := SetOrder([][2]int{{1, 2}, {3, 4}, {1, 2}})
	if len(got) != 2 {
		t.Fatalf("got %v, want two distinct tuples", got)
	}
}

// The first values of random.seed(42); random.random() as CPython prints them.
func ExampleRand_Random() {
	r := New(42)
	println := func(v float64) { _, _ = os.Stdout.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "\n") }
	println(r.Random())
	println(r.Random())
	// Output:
	// 0.6394267984578837
	// 0.025010755222666936
}

func TestSampleMatchesKnownValues(t *testing.T) {
	// random.seed(42); random.sample(range(10), 3) == [1, 0, 4] in CPython 3.11.
	got := New(42).Sample(10, 3)
	if !reflect.DeepEqual(got, []int{1, 0, 4}) {
		t.Fatalf("sample = %v, want [1 0 4]", got)
	}
}

func BenchmarkRandom(b *testing.B) {
	r := New(1)
	for i := 0; i < b.N; i++ {
		r.Random()
	}
}

func BenchmarkSetOrder(b *testing.B) {
	items := [][2]int{{3, 187}, {55, 104}, {71, 46}, {9, 9}}
	for i := 0; i < b.N; i++ {
		SetOrder(items)
	}
}

// The two-item fast path agrees with the general table.
func TestSetOrderTwoItems(t *testing.T) {
	for r := 0; r < 60; r++ {
		for c := 0; c < 60; c += 7 {
			items := [][2]int{{r, c}, {c + 3, r * 2}}
			var o SetOrderer
			got := o.Order(nil, items)
			o2 := SetOrderer{}
			want := o2.general(nil, items)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v: fast %v, table %v", items, got, want)
			}
		}
	}
}
