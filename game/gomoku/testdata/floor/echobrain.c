/*
 * echobrain is the instant brain of the protocol benchmarks, in C, with
 * nothing between it and the kernel but read and write: what the
 * benchmarks measure is the manager and the operating system.
 *
 * With -pipe it speaks the pipe protocol and answers TURN x,y (or a BOARD)
 * with the mirror square across the vertical middle of a 20x20 board.
 * Without it, it plays one move of the file protocol: the first free
 * square of the right half where (x' + 2y) mod 5 != 0 for the mirrored
 * column x', a set with no five in a row in any direction. It is the same
 * brain as ../echobrain (in Go).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SIZE 20

static int mirror(char *out, int x, int y) { return sprintf(out, "%d,%d", SIZE - 1 - x, y); }

static void answer(const char *s) {
	char buf[64];
	size_t n = strlen(s);
	memcpy(buf, s, n);
	buf[n] = '\r';
	buf[n + 1] = '\n';
	(void)!write(1, buf, n + 2);
}

/* line handles one line of the pipe protocol; it returns 0 at END. */
static int line(char *l, int *lx, int *ly) {
	char out[32];
	while (*l == ' ') l++;
	if (!strncmp(l, "START", 5) || !strncmp(l, "RECTSTART", 9) || !strncmp(l, "RESTART", 7)) {
		answer("OK");
	} else if (!strncmp(l, "ABOUT", 5)) {
		answer("name=\"echo\"");
	} else if (!strncmp(l, "END", 3)) {
		return 0;
	} else if (!strncmp(l, "TURN ", 5) || !strncmp(l, "DONE", 4)) {
		if (l[0] == 'T') sscanf(l + 5, "%d,%d", lx, ly);
		mirror(out, *lx, *ly);
		answer(out);
	} else {
		int x, y, f;
		if (sscanf(l, "%d,%d,%d", &x, &y, &f) == 3) *lx = x, *ly = y; /* a BOARD line */
	}
	return 1;
}

static int pipe_brain(void) {
	char buf[1 << 16];
	size_t have = 0;
	int lx = 0, ly = 0;
	for (;;) {
		ssize_t n = read(0, buf + have, sizeof buf - 1 - have);
		if (n <= 0) return 0;
		have += n;
		size_t start = 0;
		for (size_t i = 0; i < have; i++) {
			if (buf[i] != '\n') continue;
			buf[i] = 0;
			if (i > start && buf[i - 1] == '\r') buf[i - 1] = 0;
			if (!line(buf + start, &lx, &ly)) return 0;
			start = i + 1;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == sizeof buf - 1) have = 0; /* a line too long: drop it */
	}
}

static int file_brain(void) {
	char board[4096], turn[16], out[32];
	int fd = open("PLOCHA.DAT", O_RDONLY);
	if (fd < 0) return 1;
	ssize_t n = read(fd, board, sizeof board - 1);
	close(fd);
	if (n <= 0) return 1;
	board[n] = 0;
	fd = open("TAH.DAT", O_RDONLY);
	if (fd < 0) return 1;
	(void)!read(fd, turn, sizeof turn);
	close(fd);
	char *rows[SIZE];
	int nrows = 0;
	for (char *r = strtok(board, "\r\n"); r && nrows < SIZE; r = strtok(NULL, "\r\n")) rows[nrows++] = r;
	for (int y = 0; y < nrows; y++) {
		if (strlen(rows[y]) < SIZE) continue;
		for (int x = 0; x < SIZE / 2; x++) {
			int mx = SIZE - 1 - x;
			if ((x + 2 * y) % 5 == 0 || rows[y][mx] != '-') continue;
			int k = mirror(out, x, y);
			out[k++] = '\n';
			fd = open("TAH.DAT", O_WRONLY | O_TRUNC | O_CREAT, 0644);
			if (fd < 0) return 1;
			(void)!write(fd, out, k);
			close(fd);
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv) {
	if (argc > 1 && !strcmp(argv[1], "-pipe")) return pipe_brain();
	return file_brain();
}
