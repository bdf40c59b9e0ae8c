/* SPDX-License-Identifier: MIT */
/*
 * Evaluating a print fmt's arguments over a record's raw bytes, with
 * libtraceevent's arithmetic: fields read unsigned in the recording's byte
 * order, everything in 64 bits, casts that only cut to a width, and a
 * field outside the record read as 0.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

void tf_putn(struct tf_out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t k = o->size - o->len < n ? o->size - o->len : n;

		memcpy(o->buf + o->len, s, k);
	}
	o->len += n;
}

void tf_putc(struct tf_out *o, char c)
{
	tf_putn(o, &c, 1);
}

void tf_puts(struct tf_out *o, const char *s)
{
	tf_putn(o, s, strlen(s));
}

void tf_printf(struct tf_out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		tf_putn(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

/* The recording's byte order. */
static bool data_big_endian(const struct perfev_tp_format *f)
{
	return host_big_endian() != (f->set && f->set->swap);
}

uint64_t tf_read_num(const struct perfev_tp_format *f, const void *raw, size_t size, size_t off,
		     size_t n)
{
	const unsigned char *p = raw;
	bool big = data_big_endian(f);
	uint64_t v = 0;

	if (!raw || off > size || n > size - off)
		return 0;
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return 0;
	p += off;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

void tf_dynamic(const struct perfev_tp_format *f, const struct perfev_tp_field *fl,
		const void *raw, size_t size, uint32_t *off, uint32_t *len)
{
	uint64_t v;
	uint32_t o, l;

	*off = 0;
	*len = 0;
	if ((size_t)fl->offset + fl->size > size)
		return;
	v = tf_read_num(f, raw, size, fl->offset, fl->size);
	o = (uint32_t)(v & 0xffff);
	/* A 2-byte locator has no length: the array runs to the end of the record. */
	l = fl->size == 2 ? (uint32_t)(size > o ? size - o : 0) : (uint32_t)((v >> 16) & 0xffff);
	if (fl->flags & PERFEV_TP_FIELD_RELATIVE)
		o += fl->offset + fl->size;
	if (o > size || (size_t)o + l > size)
		return;
	*off = o;
	*len = l;
}

/* libtraceevent's eval_type_str(): a cast to a narrower integer cuts the value, nothing else. */
static uint64_t cast(uint64_t v, const char *type, bool pointer)
{
	size_t len = strlen(type);

	if (pointer) {
		/* An index through a pointer cast reads the pointed-to type. */
		if (len < 2 || type[len - 1] != '*')
			return v;
		char base[64];

		len = len - 2 < sizeof(base) - 1 ? len - 2 : sizeof(base) - 1;
		memcpy(base, type, len);
		base[len] = '\0';
		return cast(v, base, false);
	}
	if (len < 2 || type[len - 1] == '*' || STARTS_WITH(type, "struct"))
		return v;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return v & 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return v & 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return v & 0xffffffff;
	if (STARTS_WITH(type, "unsigned "))
		type += 9;
	if (!strcmp(type, "char"))
		return v & 0xff;
	if (!strcmp(type, "short"))
		return v & 0xffff;
	if (!strcmp(type, "int"))
		return v & 0xffffffff;
	return v;
}

static const struct perfev_tp_field *node_field(const struct perfev_tp_format *f,
						const struct tf_node *x)
{
	return x->field >= 0 && (size_t)x->field < f->nr_fields ? &f->fields[x->field] : NULL;
}

/* a[b]: an element of a field array or of a dynamic array, through casts. */
static uint64_t eval_index(const struct perfev_tp_format *f, const struct tf_node *x,
			   const void *raw, size_t size, unsigned depth)
{
	uint64_t idx = tf_eval_num(f, x->b, raw, size, depth + 1), off, width;
	const struct tf_node *arr = &f->nodes[x->a], *castn = NULL;
	const struct perfev_tp_field *fl;
	uint32_t doff, dlen;

	while (arr->kind == N_CAST && arr->a != TF_NONE) {
		if (!castn)
			castn = arr;
		arr = &f->nodes[arr->a];
	}
	fl = node_field(f, arr);
	if (!fl)
		return 0;
	width = f->set ? f->set->long_size : sizeof(long);
	if (arr->kind == N_DYN_ARRAY) {
		tf_dynamic(f, fl, raw, size, &doff, &dlen);
		off = (uint64_t)doff + idx;
		if (fl->elem_size)
			width = fl->elem_size;
	} else if (arr->kind == N_FIELD) {
		width = fl->elem_size;
		off = fl->offset + idx * fl->elem_size;
	} else {
		return 0;
	}
	if (off > size || width > size - off)
		return 0;
	uint64_t v = tf_read_num(f, raw, size, (size_t)off, (size_t)width);

	return castn ? cast(v, castn->str, true) : v;
}

static uint64_t binary(const struct tf_node *x, uint64_t l, uint64_t r)
{
	const char *op = x->op;

	switch (op[0]) {
	case '|': return op[1] ? (l || r) : (l | r);
	case '&': return op[1] ? (l && r) : (l & r);
	case '^': return l ^ r;
	case '=': return l == r;
	case '!': return op[1] ? l != r : !r;
	case '~': return ~r;
	case '<': return op[1] == '<' ? (r < 64 ? l << r : 0) : op[1] == '=' ? l <= r : l < r;
	case '>': return op[1] == '>' ? (r < 64 ? l >> r : 0) : op[1] == '=' ? l >= r : l > r;
	case '+': return l + r;
	case '-': return l - r;
	case '*': return l * r;
	case '/': return r ? l / r : 0;
	case '%': return r ? l % r : 0;
	default: return 0;
	}
}

uint64_t tf_eval_num(const struct perfev_tp_format *f, uint32_t node, const void *raw,
		     size_t size, unsigned depth)
{
	const struct tf_node *x;
	const struct perfev_tp_field *fl;
	uint32_t off, len;

	if (node == TF_NONE || node >= f->nr_nodes || depth > 4 * TF_DEPTH_MAX)
		return 0;
	x = &f->nodes[node];
	switch (x->kind) {
	case N_NUM:
		return x->val;
	case N_FIELD:
		fl = node_field(f, x);
		return fl ? tf_read_num(f, raw, size, fl->offset, fl->size) : 0;
	case N_INDEX:
		return eval_index(f, x, raw, size, depth);
	case N_BINARY:
		return binary(x, tf_eval_num(f, x->a, raw, size, depth + 1),
			      tf_eval_num(f, x->b, raw, size, depth + 1));
	case N_COND:
		return tf_eval_num(f, x->a, raw, size, depth + 1)
			       ? tf_eval_num(f, x->b, raw, size, depth + 1)
			       : tf_eval_num(f, x->c, raw, size, depth + 1);
	case N_CAST:
		return cast(tf_eval_num(f, x->a, raw, size, depth + 1), x->str, false);
	case N_DYN_LEN:
		fl = node_field(f, x);
		if (!fl)
			return 0;
		tf_dynamic(f, fl, raw, size, &off, &len);
		return len;
	case N_DYN_ARRAY:
		/* Without an index, the array's offset in the record stands for its address. */
		fl = node_field(f, x);
		if (!fl)
			return 0;
		tf_dynamic(f, fl, raw, size, &off, &len);
		return off;
	default:
		return 0;
	}
}

/* s (n bytes, not NUL-terminated) through a %s spec such as "%-10s" or "%.*s". */
static void put_str_spec(struct tf_out *o, const char *spec, int width, const char *s, size_t n)
{
	char *tmp = malloc(n + 1);
	char buf[1024];
	int k;

	if (!tmp)
		return;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (!strcmp(spec, "%s")) {
		tf_puts(o, tmp);
	} else {
		k = strchr(spec, '*') ? snprintf(buf, sizeof(buf), spec, width, tmp)
				      : snprintf(buf, sizeof(buf), spec, tmp);
		if (k >= (int)sizeof(buf)) {
			char *big = malloc((size_t)k + 1);

			if (big) {
				k = strchr(spec, '*') ? snprintf(big, (size_t)k + 1, spec, width, tmp)
						      : snprintf(big, (size_t)k + 1, spec, tmp);
				tf_putn(o, big, (size_t)k);
				free(big);
			}
		} else if (k > 0) {
			tf_putn(o, buf, (size_t)k);
		}
	}
	free(tmp);
}

static size_t bounded_strlen(const char *s, size_t n)
{
	const char *z = memchr(s, '\0', n);

	return z ? (size_t)(z - s) : n;
}

/* __print_flags: the names of the set bits joined by the delimiter, then any rest in hex. */
static void eval_flags(const struct perfev_tp_format *f, const struct tf_node *x, const void *raw,
		       size_t size, const char *spec, int width, struct tf_out *o, unsigned depth)
{
	uint64_t v = tf_eval_num(f, x->a, raw, size, depth + 1);
	bool printed = false;

	for (uint32_t i = 0; i < x->nr_syms; i++) {
		const struct tf_sym *s = &x->syms[i];
		int64_t fv = s->valid ? (int64_t)s->value : -1;

		if (!v && fv < 0) {
			put_str_spec(o, spec, width, s->str, strlen(s->str));
			break;
		}
		if (fv > 0 && (v & (uint64_t)fv) == (uint64_t)fv) {
			if (printed && x->str)
				tf_puts(o, x->str);
			put_str_spec(o, spec, width, s->str, strlen(s->str));
			printed = true;
			v &= ~(uint64_t)fv;
		}
	}
	if (v) {
		if (printed && x->str)
			tf_puts(o, x->str);
		tf_printf(o, "0x%llx", (unsigned long long)v);
	}
}

static void eval_symbolic(const struct perfev_tp_format *f, const struct tf_node *x,
			  const void *raw, size_t size, const char *spec, int width,
			  struct tf_out *o, unsigned depth)
{
	uint64_t v = tf_eval_num(f, x->a, raw, size, depth + 1);

	for (uint32_t i = 0; i < x->nr_syms; i++)
		if (x->syms[i].valid && x->syms[i].value == v) {
			put_str_spec(o, spec, width, x->syms[i].str, strlen(x->syms[i].str));
			return;
		}
	tf_printf(o, "0x%llx", (unsigned long long)v);
}

/* The bytes an argument of __print_hex or __print_array points at. */
static const unsigned char *array_bytes(const struct perfev_tp_format *f, uint32_t node,
					const void *raw, size_t size, size_t *avail)
{
	const struct tf_node *x = &f->nodes[node];
	const struct perfev_tp_field *fl = node_field(f, x);
	uint32_t off = 0, len = 0;

	*avail = 0;
	if (!fl || !raw)
		return NULL;
	if (x->kind == N_DYN_ARRAY) {
		tf_dynamic(f, fl, raw, size, &off, &len);
	} else if (x->kind == N_FIELD) {
		off = fl->offset;
	} else {
		return NULL;
	}
	if (off > size)
		return NULL;
	*avail = size - off;
	return (const unsigned char *)raw + off;
}

static void eval_hex(const struct perfev_tp_format *f, const struct tf_node *x, const void *raw,
		     size_t size, struct tf_out *o, unsigned depth)
{
	size_t avail;
	const unsigned char *p = array_bytes(f, x->a, raw, size, &avail);
	uint64_t n = tf_eval_num(f, x->b, raw, size, depth + 1);

	for (uint64_t i = 0; p && i < n && i < avail; i++) {
		if (i && x->kind == N_HEX)
			tf_putc(o, ' ');
		tf_printf(o, "%02x", p[i]);
	}
}

static void eval_int_array(const struct perfev_tp_format *f, const struct tf_node *x,
			   const void *raw, size_t size, struct tf_out *o, unsigned depth)
{
	size_t avail;
	const unsigned char *p = array_bytes(f, x->a, raw, size, &avail);
	uint64_t n = tf_eval_num(f, x->b, raw, size, depth + 1);
	uint64_t es = tf_eval_num(f, x->c, raw, size, depth + 1);

	tf_putc(o, '{');
	for (uint64_t i = 0; p && i < n; i++) {
		size_t w = (es == 1 || es == 2 || es == 4 || es == 8) ? (size_t)es : 1;
		size_t at = (size_t)(p - (const unsigned char *)raw);

		if (i * w + w > avail)
			break;
		if (i)
			tf_putc(o, ',');
		if (es != w)
			tf_printf(o, "BAD SIZE:%d 0x%x", (int)es, p[i * w]);
		else
			tf_printf(o, "0x%llx",
				  (unsigned long long)tf_read_num(f, raw, size, at + i * w, w));
	}
	tf_putc(o, '}');
}

/* A bitmask as the kernel prints it: hex, most significant first, a comma every 32 bits. */
static void eval_bitmask(const struct perfev_tp_format *f, const struct tf_node *x,
			 const void *raw, size_t size, const char *spec, int width,
			 struct tf_out *o)
{
	const struct perfev_tp_field *fl = node_field(f, x);
	const unsigned char *p = raw;
	bool big = data_big_endian(f);
	uint32_t off, len;
	char *str;
	size_t n = 0;

	if (!fl)
		return;
	tf_dynamic(f, fl, raw, size, &off, &len);
	str = malloc((size_t)len * 3 + 1);
	if (!str)
		return;
	for (uint32_t i = len; i-- > 0;) {
		n += (size_t)snprintf(str + n, 3, "%02x", p[off + (big ? len - 1 - i : i)]);
		if (i && !(i & 3))
			str[n++] = ',';
	}
	put_str_spec(o, spec, width, str, n);
	free(str);
}

/* A cpumask as a list of CPUs and ranges ("0-3,6"), as libtraceevent prints one. */
static void eval_cpumask(const struct perfev_tp_format *f, const struct tf_node *x,
			 const void *raw, size_t size, const char *spec, int width,
			 struct tf_out *o)
{
	const struct perfev_tp_field *fl = node_field(f, x);
	const unsigned char *p = raw;
	bool big = data_big_endian(f);
	struct tf_out list = { NULL, 0, 0 };
	char *str;
	uint32_t off, len;
	int64_t first = -1;

	if (!fl)
		return;
	tf_dynamic(f, fl, raw, size, &off, &len);
	for (int pass = 0; pass < 2; pass++) {
		bool sep = false;

		list.len = 0;
		for (uint64_t bit = 0; bit <= (uint64_t)len * 8; bit++) {
			bool set = bit < (uint64_t)len * 8 &&
				   (p[off + (big ? len - 1 - bit / 8 : bit / 8)] >> (bit % 8)) & 1;

			if (set && first < 0)
				first = (int64_t)bit;
			if (!set && first >= 0) {
				if (sep)
					tf_putc(&list, ',');
				tf_printf(&list, "%lld", (long long)first);
				if ((int64_t)bit - 1 > first)
					tf_printf(&list, "-%lld", (long long)bit - 1);
				sep = true;
				first = -1;
			}
		}
		if (pass)
			break;
		list.buf = str = malloc(list.len + 1);
		list.size = list.len;
		if (!str)
			return;
	}
	put_str_spec(o, spec, width, str, list.len);
	free(str);
}

void tf_eval_str(const struct perfev_tp_format *f, uint32_t node, const void *raw, size_t size,
		 const char *spec, int width, struct tf_out *o, unsigned depth)
{
	const struct tf_node *x;
	const struct perfev_tp_field *fl;
	uint32_t off, len;

	if (node == TF_NONE || node >= f->nr_nodes || depth > 4 * TF_DEPTH_MAX)
		return;
	x = &f->nodes[node];
	switch (x->kind) {
	case N_STR:
		put_str_spec(o, spec, width, x->str, strlen(x->str));
		return;
	case N_FIELD:
		fl = node_field(f, x);
		if (!fl)
			return;
		/* A scalar of a pointer's size is a pointer: perf prints its value. */
		if (!(fl->flags & PERFEV_TP_FIELD_ARRAY) && fl->size == f->set->long_size) {
			uint64_t addr = tf_read_num(f, raw, size, fl->offset, fl->size);
			const char *s = tf_printk_find(f->set, addr);

			if (s)
				tf_puts(o, s);
			else
				tf_printf(o, "%llx", (unsigned long long)addr);
			return;
		}
		off = fl->offset;
		len = fl->size ? fl->size : (uint32_t)(size > off ? size - off : 0);
		if ((size_t)off + len > size)
			len = off < size ? (uint32_t)(size - off) : 0;
		put_str_spec(o, spec, width, (const char *)raw + off,
			     len ? bounded_strlen((const char *)raw + off, len) : 0);
		return;
	case N_GET_STR:
		fl = node_field(f, x);
		if (!fl)
			return;
		tf_dynamic(f, fl, raw, size, &off, &len);
		if (len)
			put_str_spec(o, spec, width, (const char *)raw + off,
				     bounded_strlen((const char *)raw + off, len));
		return;
	case N_FLAGS:
		eval_flags(f, x, raw, size, spec, width, o, depth);
		return;
	case N_SYMBOLIC:
		eval_symbolic(f, x, raw, size, spec, width, o, depth);
		return;
	case N_HEX:
	case N_HEX_STR:
		eval_hex(f, x, raw, size, o, depth);
		return;
	case N_INT_ARRAY:
		eval_int_array(f, x, raw, size, o, depth);
		return;
	case N_BITMASK:
		eval_bitmask(f, x, raw, size, spec, width, o);
		return;
	case N_CPUMASK:
		eval_cpumask(f, x, raw, size, spec, width, o);
		return;
	case N_COND:
		tf_eval_str(f, tf_eval_num(f, x->a, raw, size, depth + 1) ? x->b : x->c, raw, size,
			    spec, width, o, depth + 1);
		return;
	default:
		return; /* a number under %s prints nothing, as in perf */
	}
}
