/* SPDX-License-Identifier: MIT */
/* A format's fields, and their values in a record's raw bytes. */
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

size_t perfev_tp_format__nr_fields(const struct perfev_tp_format *f)
{
	return f->nr_fields;
}

const struct perfev_tp_field *perfev_tp_format__field(const struct perfev_tp_format *f, size_t i)
{
	return i < f->nr_fields ? &f->fields[i] : NULL;
}

const struct perfev_tp_field *perfev_tp_format__field_by_name(const struct perfev_tp_format *f,
							      const char *name)
{
	for (size_t i = 0; i < f->nr_fields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

int perfev_tp_field__int(const struct perfev_tp_format *f, const struct perfev_tp_field *fl,
			 const void *raw, size_t size, uint64_t *val)
{
	uint32_t n = fl->elem_size ? fl->elem_size : fl->size;
	uint64_t v;

	*val = 0;
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return -EINVAL;
	if (!raw || (size_t)fl->offset + n > size)
		return -ERANGE;
	v = tf_read_num(f, raw, size, fl->offset, n);
	if ((fl->flags & PERFEV_TP_FIELD_SIGNED) && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~0ull << (8 * n);
	*val = v;
	return 0;
}

int perfev_tp_format__int(const struct perfev_tp_format *f, const char *name, const void *raw,
			  size_t size, uint64_t *val)
{
	const struct perfev_tp_field *fl = perfev_tp_format__field_by_name(f, name);

	if (!fl) {
		*val = 0;
		return -ENOENT;
	}
	return perfev_tp_field__int(f, fl, raw, size, val);
}

int perfev_tp_field__bytes(const struct perfev_tp_format *f, const struct perfev_tp_field *fl,
			   const void *raw, size_t size, const void **p, size_t *len)
{
	uint32_t off, n;

	*p = NULL;
	*len = 0;
	if (!(fl->flags & PERFEV_TP_FIELD_ARRAY))
		return -EINVAL;
	if (!raw || (size_t)fl->offset + fl->size > size)
		return -ERANGE;
	if (fl->flags & PERFEV_TP_FIELD_DYNAMIC) {
		tf_dynamic(f, fl, raw, size, &off, &n);
		if (!off && !n)
			return -ERANGE;
	} else {
		off = fl->offset;
		n = fl->size;
	}
	*p = (const unsigned char *)raw + off;
	*len = n;
	return 0;
}

int perfev_tp_format__str(const struct perfev_tp_format *f, const char *name, const void *raw,
			  size_t size, char *buf, size_t bufsize)
{
	const struct perfev_tp_field *fl = perfev_tp_format__field_by_name(f, name);
	const void *p;
	const char *z;
	size_t len, k;
	int ret;

	if (bufsize)
		buf[0] = '\0';
	if (!fl)
		return -ENOENT;
	ret = perfev_tp_field__bytes(f, fl, raw, size, &p, &len);
	if (ret)
		return ret;
	z = memchr(p, '\0', len);
	if (z)
		len = (size_t)(z - (const char *)p);
	if (bufsize) {
		k = len < bufsize - 1 ? len : bufsize - 1;
		memcpy(buf, p, k);
		buf[k] = '\0';
	}
	return len > INT32_MAX ? INT32_MAX : (int)len;
}
