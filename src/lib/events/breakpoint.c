/* SPDX-License-Identifier: MIT */
/* Hardware breakpoints: the values of "mem:ADDR[/LEN][:rwx]", split by spec_split.c. */
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"

/* The access letters into HW_BREAKPOINT_* bits; rw when none are given. */
static int access_type(const struct spec_split *s, unsigned int *type)
{
	*type = 0;
	for (size_t i = 0; i < s->bp.access_len; i++) {
		char c = s->bp.access[i];
		unsigned int bit = c == 'r' ? HW_BREAKPOINT_R :
				   c == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

		if (*type & bit)
			return set_error(PERFEV_ERR_SYNTAX, "access '%c' given twice in '%s'", c,
					 s->spec);
		*type |= bit;
	}
	if (!*type)
		*type = HW_BREAKPOINT_RW;
	return 0;
}

static void breakpoint_name(char *canon, size_t size, const struct perf_event_attr *attr,
			    bool len_given)
{
	unsigned int type = attr->bp_type;

	snprintf(canon, size, "mem:0x%llx", (unsigned long long)attr->bp_addr);
	if (len_given)
		snprintf(canon + strlen(canon), size - strlen(canon), "/%llu",
			 (unsigned long long)attr->bp_len);
	snprintf(canon + strlen(canon), size - strlen(canon), ":%s%s%s",
		 type & HW_BREAKPOINT_R ? "r" : "", type & HW_BREAKPOINT_W ? "w" : "",
		 type & HW_BREAKPOINT_X ? "x" : "");
}

int breakpoint__resolve(const struct spec_split *s, struct perf_event_attr *attr, char *canon,
			size_t size)
{
	uint64_t addr, len = 0;
	unsigned int type;
	int err;

	if (!s->bp.addr_len)
		return set_error(PERFEV_ERR_SYNTAX,
				 "'%s' has no address: expected mem:ADDR[/LEN][:rwx]", s->spec);
	if (!parse_u64(s->bp.addr, s->bp.addr_len, &addr))
		return set_error(PERFEV_ERR_SYNTAX,
				 "bad breakpoint address in '%s': expected a decimal or 0x hex number",
				 s->spec);
	if (s->bp.len && (!parse_u64(s->bp.len, s->bp.len_len, &len) ||
			  (len != 1 && len != 2 && len != 4 && len != 8)))
		return set_error(PERFEV_ERR_SYNTAX,
				 "bad breakpoint length in '%s': it must be 1, 2, 4 or 8", s->spec);
	err = access_type(s, &type);
	if (err)
		return err;
	if (s->mods && !*s->mods)
		return set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", s->spec);
	if (!s->bp.len)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = type;
	attr->bp_addr = addr;
	attr->bp_len = len;
	breakpoint_name(canon, size, attr, s->bp.len != NULL);
	return 0;
}
