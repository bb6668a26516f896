/*
 * floor measures the physical floor of each Gomoku protocol between two
 * tiny C processes, to compare the manager's cost per move with:
 *
 *   floor pipe BRAIN N       N round trips ("TURN x,y" out, the answer
 *                            back) over the pipes of BRAIN -pipe
 *   floor file BRAIN DIR N   N moves of the file protocol: write the five
 *                            .DAT files in DIR, fork+exec+wait BRAIN
 *                            there, read MSG.DAT and TAH.DAT
 *
 * It prints "median-ns mean-ns" of one round trip or move. With N = 0 it
 * serves instead: for each byte it reads on stdin it makes one round
 * trip or move and prints the nanoseconds it took on a line, so that a
 * benchmark can take the floor move by move between its own moves, under
 * the same load.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE 20

static long long now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static void report(long long *t, int n) {
	long long sum = 0;
	for (int i = 0; i < n; i++) sum += t[i];
	qsort(t, n, sizeof *t, cmp);
	printf("%lld %lld\n", t[n / 2], sum / n);
}

/* serve calls move for every byte on stdin and prints its time. */
static int serve(long long (*move)(int i)) {
	char c;
	for (int i = 0; read(0, &c, 1) == 1; i++) {
		long long t = move(i);
		if (t < 0) return 1;
		printf("%lld\n", t);
		fflush(stdout);
	}
	return 0;
}

/* measure calls move n times and reports, or serves when n is 0. */
static int measure(long long (*move)(int i), int n) {
	if (n <= 0) return serve(move);
	long long *t = malloc(n * sizeof *t);
	for (int i = 0; i < n; i++)
		if ((t[i] = move(i)) < 0) return 1;
	report(t, n);
	return 0;
}

static int to_brain, from_brain;

/* pipe_move makes one round trip; it returns its time, -1 on failure. */
static long long pipe_move(int i) {
	char msg[32], buf[256];
	int x = i % (SIZE / 2), y = (i / (SIZE / 2)) % SIZE;
	int k = sprintf(msg, "TURN %d,%d\r\n", x, y);
	long long t0 = now();
	if (write(to_brain, msg, k) != k) return -1;
	for (;;) { /* one answer line */
		ssize_t r = read(from_brain, buf, sizeof buf);
		if (r <= 0) return -1;
		if (buf[r - 1] == '\n') break;
	}
	return now() - t0;
}

static int pipe_floor(const char *brain, int n) {
	int in[2], out[2];
	if (pipe(in) || pipe(out)) return 1;
	pid_t pid = fork();
	if (pid < 0) return 1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl(brain, brain, "-pipe", (char *)NULL);
		_exit(127);
	}
	close(in[0]), close(out[1]);
	to_brain = in[1], from_brain = out[0];
	int rc = measure(pipe_move, n);
	close(in[1]);
	waitpid(pid, NULL, 0);
	return rc;
}

static int put(const char *dir, const char *name, const char *data, size_t len) {
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) return -1;
	ssize_t w = write(fd, data, len);
	close(fd);
	return w == (ssize_t)len ? 0 : -1;
}

static ssize_t get(const char *dir, const char *name, char *buf, size_t cap) {
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return -1;
	ssize_t r = read(fd, buf, cap);
	close(fd);
	return r;
}

static const char *file_brain, *file_dir;

/* file_move makes one move of the file protocol; it returns its time,
 * -1 on failure. */
static long long file_move(int i) {
	char board[SIZE * (SIZE + 1)], buf[256];
	const char *timeouts = "1\n60000\n";
	const char *info = "timeout_turn 1000\ntimeout_match 60000\nmax_memory 0\ngame_type 1\nrule 0\ntime_left 60000\n";
	const char *dir = file_dir;
	(void)i;
	memset(board, '-', sizeof board);
	for (int y = 0; y < SIZE; y++) board[y * (SIZE + 1) + SIZE] = '\n';
	long long t0 = now();
	if (put(dir, "PLOCHA.DAT", board, sizeof board) || put(dir, "TAH.DAT", "o\n", 2) ||
	    put(dir, "TIMEOUTS.DAT", timeouts, strlen(timeouts)) || put(dir, "INFO.DAT", info, strlen(info)) ||
	    put(dir, "MSG.DAT", "", 0))
		return -1;
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		if (chdir(dir)) _exit(126);
		execl(file_brain, file_brain, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) return -1;
	if (get(dir, "MSG.DAT", buf, sizeof buf) < 0 || get(dir, "TAH.DAT", buf, sizeof buf) <= 0) return -1;
	return now() - t0;
}

static int file_floor(const char *brain, const char *dir, int n) {
	file_brain = brain, file_dir = dir;
	return measure(file_move, n);
}

int main(int argc, char **argv) {
	if (argc == 4 && !strcmp(argv[1], "pipe")) return pipe_floor(argv[2], atoi(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "file")) return file_floor(argv[2], argv[3], atoi(argv[4]));
	fprintf(stderr, "usage: floor pipe BRAIN N | floor file BRAIN DIR N\n");
	return 2;
}
