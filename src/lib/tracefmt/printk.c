/* SPDX-License-Identifier: MIT */
/*
 * printk_formats: the kernel's constant strings by address, which a
 * tracepoint stores as a pointer (rcu_utilization's "Start context switch")
 * and perf prints as the string.  Lines are "0xADDR : \"text\"", read as
 * libtraceevent reads them: the quotes and a final "\n" taken off.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

static int cmp_printk(const void *a, const void *b)
{
	const struct tf_printk *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line: its address, and its text without the quotes and a final "\n". */
static bool parse_line(const char *s, size_t n, uint64_t *addr, const char **text, size_t *tn)
{
	const char *colon = memchr(s, ':', n);
	char num[32];
	size_t k;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(num))
		return false;
	k = (size_t)(colon - s);
	memcpy(num, s, k);
	num[k] = '\0';
	*addr = strtoull(num, NULL, 16);
	s = colon + 1;
	n -= k + 1;
	if (n) /* the space after the colon */
		s++, n--;
	if (n && *s == '"')
		s++, n--;
	if (n && s[n - 1] == '"')
		n--;
	if (n >= 2 && s[n - 2] == '\\' && s[n - 1] == 'n')
		n -= 2;
	*text = s;
	*tn = n;
	return true;
}

int tf_printk_parse(struct perfev_tracefmt *t, const char *text, size_t len)
{
	size_t cap = t->nr_printk;
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text)), *s;
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text), tn;
		uint64_t addr;

		if (n && parse_line(text, n, &addr, &s, &tn)) {
			char *str = tf_strndup(&t->arena, s, tn);

			if (!str || !array_grow((void **)&t->printk, &cap, t->nr_printk + 1,
						sizeof(*t->printk)))
				return set_error(ENOMEM, "out of memory for printk formats");
			t->printk[t->nr_printk++] = (struct tf_printk){ addr, str };
		}
		text += n + (nl != NULL);
	}
	sort_array(t->printk, t->nr_printk, sizeof(*t->printk), cmp_printk);
	return 0;
}

const char *tf_printk_find(const struct perfev_tracefmt *t, uint64_t addr)
{
	struct tf_printk key = { addr, NULL };
	const struct tf_printk *p;

	if (!t || !t->nr_printk)
		return NULL;
	p = search_array(&key, t->printk, t->nr_printk, sizeof(*p), cmp_printk);
	return p ? p->str : NULL;
}
