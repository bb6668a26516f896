# A Gomocup brain for the contest test: plays the first free cell.
import sys

size, taken = 15, set()


def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                print("%d,%d" % (x, y), flush=True)
                return


board = False
for line in sys.stdin:
    w = line.strip().upper()
    if board:
        if w == "DONE":
            board = False
            move()
        else:
            x, y, _ = w.split(",")
            taken.add((int(x), int(y)))
        continue
    if w.startswith("START"):
        size = int(w.split()[1])
        print("OK", flush=True)
    elif w == "ABOUT":
        print('name="py-first-free", version="1"', flush=True)
    elif w == "BEGIN":
        move()
    elif w.startswith("TURN"):
        x, y = w.split()[1].split(",")
        taken.add((int(x), int(y)))
        print("stderr of py", file=sys.stderr, flush=True)
        move()
    elif w == "BOARD":
        taken.clear()
        board = True
    elif w == "END":
        break
