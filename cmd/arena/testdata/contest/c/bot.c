/* A Gomocup brain for the contest test: plays the free cell nearest the centre's column. */
#include <stdio.h>
#include <string.h>

static int size = 15, taken[32][32];

static void move(void) {
	for (int d = 0; d < size; d++)
		for (int y = 0; y < size; y++) {
			int x = size / 2 + ((d & 1) ? -(d + 1) / 2 : d / 2);
			if (x >= 0 && x < size && !taken[x][y]) {
				taken[x][y] = 1;
				printf("%d,%d\n", x, y);
				return;
			}
		}
}

int main(void) {
	char line[256];
	int board = 0, x, y, f;
	setvbuf(stdout, NULL, _IONBF, 0);
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		if (board) {
			if (strcmp(line, "DONE") == 0) { board = 0; move(); }
			else if (sscanf(line, "%d,%d,%d", &x, &y, &f) == 3) taken[x][y] = 1;
		} else if (strncmp(line, "START", 5) == 0) {
			sscanf(line, "START %d", &size);
			puts("OK");
		} else if (strcmp(line, "ABOUT") == 0) {
			puts("name=\"c-centre\", version=\"1\"");
		} else if (strcmp(line, "BEGIN") == 0) {
			move();
		} else if (sscanf(line, "TURN %d,%d", &x, &y) == 2) {
			taken[x][y] = 1;
			fprintf(stderr, "stderr of c\n");
			move();
		} else if (strcmp(line, "BOARD") == 0) {
			memset(taken, 0, sizeof taken);
			board = 1;
		} else if (strcmp(line, "END") == 0) {
			return 0;
		}
	}
	return 0;
}
