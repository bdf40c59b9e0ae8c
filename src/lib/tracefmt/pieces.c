/* SPDX-License-Identifier: MIT */
/*
 * The format string of a print fmt cut into pieces: literal texts (escapes
 * undone) and conversions, each given the next argument, as libtraceevent
 * pairs them: a '*' width takes one argument before the value, %p may carry
 * an extension (%pS, %pI4, %pM...), and a conversion character it does not
 * know prints as ">c<".
 */
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

struct splitter {
	struct perfev_tp_format *f;
	const uint32_t *args;
	size_t nr_args, next_arg, cap;
	char *err;
	size_t err_size;
};

static bool split_fail(struct splitter *sp, const char *why)
{
	if (!sp->err[0])
		snprintf(sp->err, sp->err_size, "%s", why);
	return false;
}

static struct tf_piece *add_piece(struct splitter *sp, enum tf_piece_kind kind)
{
	struct perfev_tp_format *f = sp->f;

	if (f->nr_pieces >= TF_PIECES_MAX) {
		split_fail(sp, "too many conversions");
		return NULL;
	}
	if (!array_grow((void **)&f->pieces, &sp->cap, f->nr_pieces + 1, sizeof(*f->pieces))) {
		split_fail(sp, "out of memory");
		return NULL;
	}
	f->pieces[f->nr_pieces] = (struct tf_piece){ .kind = (uint8_t)kind, .arg = TF_NONE,
						     .width_arg = TF_NONE };
	return &f->pieces[f->nr_pieces++];
}

/* Literal text up to the next conversion; returns where it stopped. */
static const char *split_text(struct splitter *sp, const char *s)
{
	char buf[4096];
	size_t n = 0;
	struct tf_piece *pc;

	while (*s && n < sizeof(buf) - 1) {
		if (*s == '\\' && s[1]) {
			s++;
			buf[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == 'r' ? '\r' : *s;
		} else if (*s == '%' && s[1] == '%') {
			buf[n++] = '%';
			s++;
		} else if (*s == '%') {
			break;
		} else {
			buf[n++] = *s;
		}
		s++;
	}
	pc = add_piece(sp, P_TEXT);
	if (!pc || !(pc->text = tf_strndup(&sp->f->arena, buf, n)))
		return split_fail(sp, "out of memory"), NULL;
	return s;
}

/* The letters of a %p extension after the 'p' (libtraceevent's parse_arg_format_pointer()). */
static size_t pointer_ext(const char *s)
{
	size_t i;

	switch (*s) {
	case 'F': case 'S': case 'f': case 's':
		return 1;
	case 'M': case 'm':
		return (s[1] == 'R' || s[1] == 'F') ? 2 : 1;
	case 'U':
		return strchr("LlBb", s[1]) && s[1] ? 2 : 1;
	case 'h':
		return strchr("CDN", s[1]) && s[1] ? 2 : 1;
	case 'I': case 'i':
		i = 2;
		if (s[1] == 'S')
			while (s[i] == 'p' || s[i] == 'f' || s[i] == 's')
				i++;
		if (s[1] == '4' || s[1] == 'S') {
			if (s[i] && strchr("hnlb", s[i]))
				i++;
			if (s[1] == '4')
				return i;
		}
		if (s[1] == '6' || s[1] == 'S')
			return s[i] == 'c' ? i + 1 : i;
		return 1;
	default:
		return 0;
	}
}

static bool take_arg(struct splitter *sp, uint32_t *arg)
{
	if (sp->next_arg >= sp->nr_args)
		return split_fail(sp, "a conversion without an argument");
	*arg = sp->args[sp->next_arg++];
	return true;
}

/* One conversion at s ('%'); returns what follows it. */
static const char *split_conversion(struct splitter *sp, const char *s)
{
	const char *start = s++;
	uint32_t width = TF_NONE;
	enum tf_piece_kind kind;
	struct tf_piece *pc;
	int ls = 0;

	for (;; s++) {
		if (!*s)
			return s; /* an unfinished conversion prints nothing, as in perf */
		if (strchr("#.-+0123456789", *s))
			continue;
		if (*s == 'h')
			ls--;
		else if (*s == 'l')
			ls++;
		else if (*s == 'L')
			ls = 2;
		else if (*s == 'z' || *s == 'Z')
			ls = 1;
		else if (*s == '*') {
			if (width != TF_NONE)
				return split_fail(sp, "two '*' widths in one conversion"), NULL;
			if (!take_arg(sp, &width))
				return NULL;
		} else
			break;
	}
	if (*s == 'p') {
		kind = P_PTR;
		s += pointer_ext(s + 1);
	} else if (strchr("cduixXo", *s)) {
		kind = P_INT;
	} else if (*s == 's') {
		kind = P_STR;
	} else {
		char text[4] = { '>', *s, '<', 0 };

		pc = add_piece(sp, P_TEXT);
		if (!pc || !(pc->text = tf_strndup(&sp->f->arena, text, 3)))
			return split_fail(sp, "out of memory"), NULL;
		return s + 1;
	}
	if ((size_t)(s + 1 - start) >= sizeof(pc->spec))
		return split_fail(sp, "a conversion longer than 31 characters"), NULL;
	if (ls < -2 || ls > 2)
		return split_fail(sp, "a conversion with too many length modifiers"), NULL;
	pc = add_piece(sp, kind);
	if (!pc)
		return NULL;
	memcpy(pc->spec, start, (size_t)(s + 1 - start));
	pc->ls = (int8_t)ls;
	pc->width_arg = width;
	if (!take_arg(sp, &pc->arg))
		return NULL;
	return s + 1;
}

bool tf_split_format(struct perfev_tp_format *f, const char *fmt, const uint32_t *args,
		     size_t nr_args, char *err, size_t err_size);

bool tf_split_format(struct perfev_tp_format *f, const char *fmt, const uint32_t *args,
		     size_t nr_args, char *err, size_t err_size)
{
	struct splitter sp = { f, args, nr_args, 0, 0, err, err_size };
	const char *s = fmt;

	while (s && *s)
		s = (*s == '%' && s[1] != '%') ? split_conversion(&sp, s) : split_text(&sp, s);
	return s != NULL;
}
