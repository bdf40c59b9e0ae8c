/*
 * A tiny HTTP server of the files under a directory, for tests that need a
 * server on localhost (a debuginfod stand-in: GET /buildid/ID/source/PATH
 * is the file ROOT/buildid/ID/source/PATH).  Listens on 127.0.0.1 at a
 * port the kernel picks, writes that port to PORTFILE, prints each request
 * path it serves (one line each, flushed) and serves until killed.
 * Usage: httpd_files ROOT PORTFILE
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* %XX decoded in place; 0, or -1 for a malformed escape. */
static int url_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '%') {
			int h = hexval(s[1]), l = h >= 0 ? hexval(s[2]) : -1;

			if (l < 0)
				return -1;
			*o++ = (char)(h * 16 + l);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	return 0;
}

static void reply(int c, const char *status, const char *body, size_t len)
{
	char head[256];
	int n = snprintf(head, sizeof(head), "HTTP/1.1 %s\r\nContent-Length: %zu\r\n"
			 "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
			 status, len);

	if (write(c, head, (size_t)n) < 0 || (len && write(c, body, len) < 0))
		perror("httpd_files: write");
}

static void serve(int c, const char *root)
{
	char req[8192], path[8192], *sp, *end;
	ssize_t n = read(c, req, sizeof(req) - 1);
	struct stat st;
	char *body;
	int fd;

	if (n <= 0)
		return;
	req[n] = 0;
	sp = strchr(req, ' ');
	end = sp ? strchr(sp + 1, ' ') : NULL;
	if (!sp || !end || strncmp(req, "GET ", 4)) {
		reply(c, "400 Bad Request", "", 0);
		return;
	}
	*end = 0;
	printf("%s\n", sp + 1);
	fflush(stdout);
	if (url_decode(sp + 1) || strstr(sp + 1, "..") ||
	    (size_t)snprintf(path, sizeof(path), "%s%s", root, sp + 1) >= sizeof(path) ||
	    stat(path, &st) || !S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY)) < 0) {
		reply(c, "404 Not Found", "", 0);
		return;
	}
	body = malloc((size_t)st.st_size + 1);
	if (body && read(fd, body, (size_t)st.st_size) == st.st_size)
		reply(c, "200 OK", body, (size_t)st.st_size);
	else
		reply(c, "500 Internal Server Error", "", 0);
	free(body);
	close(fd);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	char tmp[4096];
	int s, one = 1;
	FILE *pf;

	if (argc != 3) {
		fprintf(stderr, "usage: httpd_files ROOT PORTFILE\n");
		return 2;
	}
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 16) ||
	    getsockname(s, (struct sockaddr *)&a, &len)) {
		perror("httpd_files");
		return 1;
	}
	/* Whole or not at all: a test waits for the file and reads it at once. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	pf = fopen(tmp, "w");
	if (!pf || fprintf(pf, "%d\n", ntohs(a.sin_port)) < 0 || fclose(pf) || rename(tmp, argv[2])) {
		perror(argv[2]);
		return 1;
	}
	for (;;) {
		int c = accept(s, NULL, NULL);

		if (c < 0)
			continue;
		serve(c, argv[1]);
		close(c);
	}
}
