/* SPDX-License-Identifier: MIT */
/*
 * A record as perf script prints it: the print fmt's pieces in turn, each
 * conversion given its argument the way libtraceevent gives it (a number
 * cast to the conversion's length, a string, or a pointer with its %p
 * extension), or, for a print fmt perf cannot parse, "[FAILED TO PARSE]"
 * and every field raw.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

static bool printable(const char *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!isprint((unsigned char)p[i]) && !isspace((unsigned char)p[i]))
			return false;
	return true;
}

/* One field raw, as libtraceevent's print_field_raw() does. */
static void print_field_raw(const struct perfev_tp_format *f, const struct perfev_tp_field *fl,
			    const void *raw, size_t size, struct tf_out *o)
{
	const unsigned char *p = raw;
	uint64_t v;

	if (fl->flags & PERFEV_TP_FIELD_ARRAY) {
		uint32_t off = fl->offset, len = fl->size;

		if (fl->flags & PERFEV_TP_FIELD_DYNAMIC)
			tf_dynamic(f, fl, raw, size, &off, &len);
		else if ((size_t)off + len > size)
			len = off < size ? (uint32_t)(size - off) : 0, off = off < size ? off : 0;
		if ((fl->flags & PERFEV_TP_FIELD_STRING) && printable((const char *)p + off, len)) {
			const char *z = memchr(p + off, '\0', len);

			tf_putn(o, (const char *)p + off, z ? (size_t)(z - (const char *)(p + off)) : len);
			return;
		}
		tf_puts(o, "ARRAY[");
		for (uint32_t i = 0; i < len; i++)
			tf_printf(o, "%s%02x", i ? ", " : "", p[off + i]);
		tf_putc(o, ']');
		return;
	}
	v = tf_read_num(f, raw, size, fl->offset, fl->size);
	if (fl->flags & PERFEV_TP_FIELD_POINTER) {
		tf_printf(o, "0x%llx", (unsigned long long)v);
	} else if (fl->flags & PERFEV_TP_FIELD_SIGNED) {
		switch (fl->size) {
		case 4:
			if (fl->flags & PERFEV_TP_FIELD_LONG)
				tf_printf(o, "0x%x", (int)v);
			else
				tf_printf(o, "%d", (int)v);
			break;
		case 2:
			tf_printf(o, "%2d", (short)v);
			break;
		case 1:
			tf_printf(o, "%1d", (signed char)v);
			break;
		default:
			tf_printf(o, "%lld", (long long)v);
		}
	} else if (fl->flags & PERFEV_TP_FIELD_LONG) {
		tf_printf(o, "0x%llx", (unsigned long long)v);
	} else {
		tf_printf(o, "%llu", (unsigned long long)v);
	}
}

void tf_print_fields(const struct perfev_tp_format *f, const void *raw, size_t size,
		     struct tf_out *o)
{
	for (size_t i = 0; i < f->nr_fields; i++) {
		const struct perfev_tp_field *fl = &f->fields[i];

		if (fl->flags & PERFEV_TP_FIELD_COMMON)
			continue;
		tf_printf(o, " %s=", fl->name);
		print_field_raw(f, fl, raw, size, o);
	}
}

/* A number through its conversion, cast as libtraceevent's print_arg_number() casts it. */
static void print_int(const struct tf_piece *pc, uint64_t v, int width, struct tf_out *o)
{
	bool w = pc->width_arg != TF_NONE;

	switch (pc->ls) {
	case -2:
		w ? tf_printf(o, pc->spec, width, (char)v) : tf_printf(o, pc->spec, (char)v);
		break;
	case -1:
		w ? tf_printf(o, pc->spec, width, (short)v) : tf_printf(o, pc->spec, (short)v);
		break;
	case 0:
		w ? tf_printf(o, pc->spec, width, (int)v) : tf_printf(o, pc->spec, (int)v);
		break;
	case 1:
		w ? tf_printf(o, pc->spec, width, (long)v) : tf_printf(o, pc->spec, (long)v);
		break;
	default:
		w ? tf_printf(o, pc->spec, width, (long long)v) : tf_printf(o, pc->spec, (long long)v);
	}
}

/* The bytes of a field or dynamic array argument (for %pM, %pI4...), or NULL. */
static const unsigned char *arg_bytes(const struct perfev_tp_format *f, uint32_t node,
				      const void *raw, size_t size, uint32_t *len)
{
	const struct tf_node *x = &f->nodes[node];
	const struct perfev_tp_field *fl;
	uint32_t off;

	while (x->kind == N_CAST && x->a != TF_NONE)
		x = &f->nodes[x->a];
	if ((x->kind != N_FIELD && x->kind != N_DYN_ARRAY) || x->field < 0)
		return NULL;
	fl = &f->fields[x->field];
	if (x->kind == N_DYN_ARRAY) {
		tf_dynamic(f, fl, raw, size, &off, len);
	} else {
		off = fl->offset;
		*len = fl->size;
		if ((size_t)off + *len > size)
			return NULL;
	}
	return (const unsigned char *)raw + off;
}

static void print_mac(const unsigned char *b, uint32_t len, bool reverse, struct tf_out *o)
{
	if (!b || len != 6) {
		tf_puts(o, "INVALIDMAC");
		return;
	}
	for (int i = 0; i < 6; i++)
		tf_printf(o, "%s%02x", i ? ":" : "", b[reverse ? 5 - i : i]);
}

static void print_ip(const unsigned char *b, uint32_t len, const char *ext, struct tf_out *o)
{
	char buf[INET6_ADDRSTRLEN];
	bool v6 = strchr(ext, '6') != NULL;

	if (ext[1] == 'S' && b && len >= 8) {
		/* A sockaddr: its family says which. */
		uint16_t fam;

		memcpy(&fam, b, 2);
		if (fam == AF_INET) {
			b += 4;
			len = 4;
			v6 = false;
		} else if (fam == AF_INET6 && len >= 24) {
			b += 8;
			len = 16;
			v6 = true;
		} else {
			tf_puts(o, "INVALIDIPADDR");
			return;
		}
	}
	if (!b || len != (v6 ? 16u : 4u)) {
		tf_puts(o, v6 ? "INVALIDIPv6" : "INVALIDIPv4");
		return;
	}
	if (!v6) {
		tf_printf(o, "%d.%d.%d.%d", b[0], b[1], b[2], b[3]);
	} else if (strchr(ext, 'c')) {
		if (inet_ntop(AF_INET6, b, buf, sizeof(buf)))
			tf_puts(o, buf);
	} else {
		for (int i = 0; i < 16; i += 2)
			tf_printf(o, "%s%02x%02x", i ? ":" : "", b[i], b[i + 1]);
	}
}

static void print_uuid(const unsigned char *b, uint32_t len, struct tf_out *o)
{
	if (!b || len != 16) {
		tf_puts(o, "INVALIDUUID");
		return;
	}
	for (int i = 0; i < 16; i++)
		tf_printf(o, "%s%02x", (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "", b[i]);
}

static void print_function(const struct perfev_tp_format *f, uint64_t v, char kind,
			   const struct perfev_tp_print_opts *po, struct tf_out *o)
{
	uint64_t start = 0;
	const char *name = po && po->ksym ? po->ksym(po->ctx, v, &start) : NULL;

	if (name) {
		tf_puts(o, name);
		if (kind == 'F' || kind == 'S')
			tf_printf(o, "+0x%llx", (unsigned long long)(v - start));
	} else if (f->set->long_size == 4) {
		tf_printf(o, "0x%lx", (unsigned long)(uint32_t)v);
	} else {
		tf_printf(o, "0x%llx", (unsigned long long)v);
	}
}

static void print_pointer(const struct perfev_tp_format *f, const struct tf_piece *pc,
			  const void *raw, size_t size, int width,
			  const struct perfev_tp_print_opts *po, struct tf_out *o)
{
	const char *ext = strchr(pc->spec, 'p') + 1;
	const unsigned char *b;
	uint32_t len = 0;

	if (f->nodes[pc->arg].kind == N_STR) {
		tf_puts(o, f->nodes[pc->arg].str);
		return;
	}
	switch (*ext) {
	case 'F': case 'f': case 'S': case 's':
		print_function(f, tf_eval_num(f, pc->arg, raw, size, 0), *ext, po, o);
		return;
	case 'M': case 'm':
		b = arg_bytes(f, pc->arg, raw, size, &len);
		print_mac(b, len, ext[1] == 'R', o);
		return;
	case 'I': case 'i':
		b = arg_bytes(f, pc->arg, raw, size, &len);
		print_ip(b, len, ext, o);
		return;
	case 'U':
		b = arg_bytes(f, pc->arg, raw, size, &len);
		print_uuid(b, len, o);
		return;
	case 'h':
		b = arg_bytes(f, pc->arg, raw, size, &len);
		if (pc->width_arg != TF_NONE && width >= 0 && (uint32_t)width < len)
			len = (uint32_t)width;
		for (uint32_t i = 0; b && i < len; i++)
			tf_printf(o, i ? (ext[1] == 'C' ? ":%02x" : ext[1] == 'D' ? "-%02x" :
					  ext[1] == 'N' ? "%02x" : " %02x") : "%02x", b[i]);
		return;
	default: {
		uint64_t v = tf_eval_num(f, pc->arg, raw, size, 0);

		if (v)
			tf_printf(o, "%p", (void *)(uintptr_t)v);
		else
			tf_puts(o, "(nil)");
	}
	}
}

static void print_piece(const struct perfev_tp_format *f, const struct tf_piece *pc,
			const void *raw, size_t size, const struct perfev_tp_print_opts *po,
			struct tf_out *o)
{
	int width = -1;

	if (pc->width_arg != TF_NONE)
		width = (int)tf_eval_num(f, pc->width_arg, raw, size, 0);
	switch (pc->kind) {
	case P_TEXT:
		tf_puts(o, pc->text);
		break;
	case P_INT:
		print_int(pc, tf_eval_num(f, pc->arg, raw, size, 0), width, o);
		break;
	case P_STR:
		tf_eval_str(f, pc->arg, raw, size, pc->spec, width, o, 0);
		break;
	case P_PTR:
		print_pointer(f, pc, raw, size, width, po, o);
		break;
	}
}

int perfev_tp_format__print(const struct perfev_tp_format *f, const void *raw, size_t size,
			    const struct perfev_tp_print_opts *opts, char *buf, size_t bufsize)
{
	struct perfev_tp_print_opts po = { .sz = sizeof(po) };
	struct tf_out o = { buf, bufsize ? bufsize - 1 : 0, 0 };

	if (opts) {
		if (opts->sz < sizeof(size_t))
			return set_error(EINVAL, "perfev_tp_print_opts.sz is %zu, too small", opts->sz);
		memcpy(&po, opts, opts->sz < sizeof(po) ? opts->sz : sizeof(po));
	}
	if (!raw)
		size = 0;
	if (f->print_error) {
		tf_puts(&o, "[FAILED TO PARSE]");
		tf_print_fields(f, raw, size, &o);
	} else {
		for (size_t i = 0; i < f->nr_pieces; i++)
			print_piece(f, &f->pieces[i], raw, size, &po, &o);
	}
	if (bufsize)
		buf[o.len < bufsize ? o.len : bufsize - 1] = '\0';
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}
