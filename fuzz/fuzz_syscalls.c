/*
 * syscalls/ over untrusted input: raw_syscalls samples of any bytes read
 * through their formats, and any sequence of entries, returns, names and
 * forks of any threads, then every thread's figures read back in order and
 * named from the tables.  Input: records of 16 bytes (op, thread, a value)
 * then, when op says so, raw bytes of a sample.
 */
#include <stdint.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static const char fmt_enter[] =
	"name: sys_enter\nID: 21\nformat:\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld\", REC->id\n";
static const char fmt_exit[] =
	"name: sys_exit\nID: 22\nformat:\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const arches[] = { NULL, "x86_64", "i686", "aarch64", "nope" };
	struct perfev_tracefmt *tf = perfev_tracefmt__new();
	struct perfev_syscall_stats *st;
	const struct perfev_tp_format *fe, *fx;
	const char *arch = arches[size ? data[0] % 5 : 0];
	uint64_t time = 0;

	if (!tf)
		return 0;
	perfev_tracefmt__add_format(tf, "raw_syscalls", fmt_enter, strlen(fmt_enter));
	perfev_tracefmt__add_format(tf, "raw_syscalls", fmt_exit, strlen(fmt_exit));
	fe = perfev_tracefmt__find_id(tf, 21);
	fx = perfev_tracefmt__find_id(tf, 22);
	st = perfev_syscall_stats__new(arch);
	for (size_t at = size ? 1 : 0; st && at + 16 <= size;) {
		uint8_t op = data[at];
		int tid = data[at + 1] % 8;
		int64_t v;
		long nr;

		memcpy(&v, data + at + 8, 8);
		nr = (long)(int16_t)(data[at + 2] | data[at + 3] << 8);
		time += data[at + 4];
		at += 16;
		switch (op % 6) {
		case 0:
			perfev_syscall_stats__enter(st, 1, tid, time, nr);
			break;
		case 1:
			perfev_syscall_stats__exit(st, 1, tid, time, nr, (long)v);
			break;
		case 2: {
			char comm[9] = { 0 };

			memcpy(comm, data + at - 8, 8);
			perfev_syscall_stats__comm(st, 1, tid, comm);
			break;
		}
		case 3:
			perfev_syscall_stats__fork(st, (int)(v % 8), 1, tid);
			break;
		default: {
			/* A sample: the next (op / 6) bytes are its raw data. */
			size_t n = (size_t)(op / 6) < size - at ? (size_t)(op / 6) : size - at;

			perfev_syscall_stats__sample(st, op % 6 == 4 ? fe : fx, 1, tid, time, data + at, n);
			at += n;
			break;
		}
		}
	}
	for (size_t i = 0; st && i < perfev_syscall_stats__nr_threads(st); i++) {
		const struct perfev_syscall_thread *t = perfev_syscall_stats__thread(st, i);

		sink += t->nr_events + (t->comm ? strlen(t->comm) : 0);
		for (size_t k = 0; k < t->nr_syscalls; k++) {
			const char *name = perfev_syscall__name(arch, t->syscalls[k].nr);

			sink += t->syscalls[k].calls + t->syscalls[k].errors + (name ? strlen(name) : 0) +
				(uint64_t)perfev_syscall_stat__stddev_pct(&t->syscalls[k]);
		}
	}
	perfev_syscall_stats__delete(st);
	perfev_tracefmt__delete(tf);
	return 0;
}
