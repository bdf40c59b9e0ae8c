/* SPDX-License-Identifier: MIT */
/* Bounded string helpers of the event parser, which only ever sees untrusted text. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events/events_int.h"

bool str_copy(char *dst, size_t size, const char *src)
{
	size_t n;

	if (!size)
		return false;
	n = strlen(src);
	if (n >= size) {
		dst[0] = '\0';
		return false;
	}
	memcpy(dst, src, n + 1);
	return true;
}

bool parse_u64(const char *s, size_t len, uint64_t *val)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		len -= 2;
	}
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return false;
		if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, (uint64_t)d, &v))
			return false;
	}
	*val = v;
	return true;
}

bool path_join(char *buf, size_t size, const char *a, const char *b, const char *c,
	       const char *d)
{
	const char *parts[] = { a, b, c, d };
	size_t len = 0;

	if (!size)
		return false;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		size_t n;

		if (!parts[i])
			break;
		n = strlen(parts[i]);
		if (len && len + 1 < size)
			buf[len++] = '/';
		else if (len)
			return false;
		if (n >= size - len)
			return false;
		memcpy(buf + len, parts[i], n + 1);
		len += n;
	}
	return true;
}

bool name_is_path_safe(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

int name_list__add(struct name_list *l, const char *name)
{
	char *copy;

	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32, bytes;
		char **n;

		if (!size_mul_ok(cap, sizeof(*n), &bytes))
			return -ENOMEM;
		n = realloc(l->names, bytes);
		if (!n)
			return -ENOMEM;
		l->names = n;
		l->cap = cap;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	l->names[l->nr++] = copy;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void name_list__sort(struct name_list *l)
{
	if (l->nr > 1)
		sort_array(l->names, l->nr, sizeof(*l->names), cmp_str);
}

int name_list__read_dir(struct name_list *l, const char *path, bool dirs_only)
{
	struct dirent *de;
	DIR *dir = opendir(path);
	int err = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (dirs_only && de->d_type != DT_DIR) {
			struct stat st;

			/* sysfs lists PMUs as symbolic links to their device directories. */
			if ((de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) ||
			    fstatat(dirfd(dir), de->d_name, &st, 0) || !S_ISDIR(st.st_mode))
				continue;
		}
		err = name_list__add(l, de->d_name);
		if (err)
			break;
	}
	closedir(dir);
	name_list__sort(l);
	return err;
}

void name_list__free(struct name_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->nr = l->cap = 0;
}

void str_sanitize(char *dst, size_t size, const char *src)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; src[i] && i + 1 < size && i < 64; i++)
		dst[i] = spec_char_ok((unsigned char)src[i]) ? src[i] : '?';
	dst[i] = '\0';
}
