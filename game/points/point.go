package points

import (
	"fmt"
	"strconv"
	"strings"
)

// Point is an intersection of the field: X counts columns from the left,
// Y rows from the top, both from 0.
type Point struct{ X, Y int }

// String writes a point as arena's records do: "x,y".
func (p Point) String() string { return strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) }

// ParsePoint reads "x,y" (spaces allowed around the numbers).
func ParsePoint(s string) (Point, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, fmt.Errorf("point %q: want x,y", s)
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Point{}, fmt.Errorf("point %q: want two integers x,y", s)
	}
	return Point{X: x, Y: y}, nil
}

// MarshalText writes a point as "x,y" (JSON records).
func (p Point) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "x,y".
func (p *Point) UnmarshalText(b []byte) error {
	q, err := ParsePoint(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}
