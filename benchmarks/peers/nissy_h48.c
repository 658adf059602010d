/* A driver for nissy-core's H48 solver (Tronto, https://github.com/sebastianotronto/nissy-core),
 * the peer of benchmarks/h48.py: the table is read once, then each scramble read from stdin (one
 * per line, in H48's move notation) is solved optimally and one line is printed:
 *     <seconds> <nodes visited> <solution>
 * seconds: wall time of nissy_solve alone (the table already in memory).
 *
 * Built by benchmarks/h48.py against a built nissy-core checkout (`./build.sh` there makes
 * nissy.o; `./run gendata -solver h48hK` there writes tables/h48hK):
 *     cc -O3 -mavx2 -pthread -I NISSY/src nissy_h48.c NISSY/nissy.o -o nissy_h48
 * Usage: nissy_h48 SOLVER TABLE THREADS < scrambles
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nissy.h"

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	char dataid[NISSY_SIZE_DATAID], cube[NISSY_SIZE_CUBE], line[1024], sols[4096];
	long long stats[NISSY_SIZE_SOLVE_STATS], size, found;
	unsigned char *data;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SOLVER TABLE THREADS < scrambles\n", argv[0]);
		return 2;
	}
	size = nissy_solverinfo(argv[1], dataid);
	if (size < 0) {
		fprintf(stderr, "%s: unknown solver %s\n", argv[0], argv[1]);
		return 2;
	}
	data = aligned_alloc(64, (size + 63) / 64 * 64);
	if ((f = fopen(argv[2], "rb")) == NULL || fread(data, size, 1, f) != 1) {
		fprintf(stderr, "%s: cannot read %lld bytes of %s\n", argv[0], size, argv[2]);
		return 2;
	}
	fclose(f);
	if (nissy_checkdata(argv[1], size, data) != NISSY_OK) {
		fprintf(stderr, "%s: %s fails nissy's check\n", argv[0], argv[2]);
		return 2;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (nissy_applymoves(NISSY_SOLVED_CUBE, line, cube) != NISSY_OK) {
			fprintf(stderr, "%s: bad scramble '%s'\n", argv[0], line);
			return 2;
		}
		double t0 = now();
		found = nissy_solve(cube, argv[1], NISSY_NISSFLAG_NORMAL, 0, 20, 1, 0, atoi(argv[3]), size, data,
		    sizeof sols, sols, stats, NULL, NULL);
		double t1 = now();
		sols[strcspn(sols, "\n")] = '\0';
		printf("%.4f %lld %s\n", t1 - t0, stats[0], found > 0 ? sols : "-");
		fflush(stdout);
	}
	free(data);
	return 0;
}
