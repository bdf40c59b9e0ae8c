/*
 * damage_feature IN OUT BIT HOW: copies the perf.data file IN to OUT with
 * its feature section BIT damaged, as a disk or a careless copy would:
 *   body   four bytes at its start become 0xffffffff: a string's length, a
 *          count, or (BUILD_ID, bit 2) a build-id record's misc and size;
 *   table  its entry in the section table points past the end of the file.
 * Exits 2 when IN has no such section (or is no perf.data file in this
 * machine's byte order), 1 on I/O errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int main(int argc, char **argv)
{
	static unsigned char buf[64 << 20];
	unsigned char *e;
	uint64_t table, off;
	size_t len, nth = 0;
	int bit;
	FILE *f;

	if (argc != 5 || (strcmp(argv[4], "body") && strcmp(argv[4], "table"))) {
		fprintf(stderr, "usage: damage_feature IN OUT BIT body|table\n");
		return 1;
	}
	bit = atoi(argv[3]);
	f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (len < 104 || memcmp(buf, "PERFILE2", 8) || bit < 1 || bit >= 256 ||
	    !((buf[72 + bit / 8] >> (bit % 8)) & 1))
		return 2;
	/* The table follows the data, one {offset, size} per set bit, in bit order. */
	table = u64_at(buf + 40) + u64_at(buf + 48);
	for (int b = 0; b < bit; b++)
		nth += (buf[72 + b / 8] >> (b % 8)) & 1;
	if (table + 16 * (nth + 1) > len)
		return 2;
	e = buf + table + 16 * nth;
	if (!strcmp(argv[4], "table")) {
		off = len + 4096;
		memcpy(e, &off, 8);
	} else {
		off = u64_at(e) + (bit == 2 ? 4 : 0);
		if (u64_at(e + 8) < 8 || off + 4 > len)
			return 2;
		memset(buf + off, 0xff, 4);
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		return 1;
	return 0;
}
