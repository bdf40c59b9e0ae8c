/* SPDX-License-Identifier: MIT */
/* Shared by tracefmt's files: a format's fields, its print fmt as a tree, and the printer. */
#ifndef PERFEV_TRACEFMT_INT_H
#define PERFEV_TRACEFMT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/tracefmt.h"

/* Bounds on untrusted input: far above anything a kernel writes. */
#define TF_TEXT_MAX (1u << 20)	/* one format file */
#define TF_FIELDS_MAX 1024	/* fields of one event */
#define TF_NODES_MAX 16384	/* expression nodes of one print fmt */
#define TF_PIECES_MAX 1024	/* literal texts and conversions of one print fmt */
#define TF_SYMS_MAX 4096	/* entries of one __print_flags / __print_symbolic */
#define TF_DEPTH_MAX 128	/* nesting of expressions */
#define TF_NONE UINT32_MAX

/* Allocations that live as long as their format. */
struct tf_chunk {
	struct tf_chunk *next;
	size_t used, cap;
	unsigned char data[];
};
void *tf_alloc(struct tf_chunk **arena, size_t size);
char *tf_strndup(struct tf_chunk **arena, const char *s, size_t n);
void tf_arena_free(struct tf_chunk *arena);

/* One entry of __print_flags or __print_symbolic. */
struct tf_sym {
	uint64_t value;
	bool valid; /* false: a name perf does not know, which never matches (its -1) */
	const char *str;
};

enum tf_kind {
	N_NUM,	     /* val */
	N_STR,	     /* str: a string literal */
	N_FIELD,     /* field (-1: a name the event lacks) */
	N_INDEX,     /* a[b] */
	N_BINARY,    /* a op b; a unary operator has no a (0) */
	N_COND,	     /* a ? b : c */
	N_CAST,	     /* (str) a */
	N_FLAGS,     /* __print_flags(a, str, syms) */
	N_SYMBOLIC,  /* __print_symbolic(a, syms) */
	N_GET_STR,   /* __get_str(field) */
	N_DYN_ARRAY, /* __get_dynamic_array(field) */
	N_DYN_LEN,   /* __get_dynamic_array_len(field) */
	N_BITMASK,   /* __get_bitmask(field) */
	N_CPUMASK,   /* __get_cpumask(field) */
	N_HEX,	     /* __print_hex(a, b) */
	N_HEX_STR,   /* __print_hex_str(a, b) */
	N_INT_ARRAY, /* __print_array(a, b, c) */
};

struct tf_node {
	uint8_t kind;
	char op[3];
	int8_t prio; /* libtraceevent's op.prio, which decides where a following operator goes */
	uint32_t a, b, c;
	int32_t field;
	uint64_t val;
	const char *str;
	const struct tf_sym *syms;
	uint32_t nr_syms;
};

enum tf_piece_kind { P_TEXT, P_INT, P_STR, P_PTR };

/* A piece of the print fmt: literal text, or one conversion with its argument. */
struct tf_piece {
	uint8_t kind;
	int8_t ls;	 /* -2 hh, -1 h, 0, 1 l/z, 2 ll/L */
	char spec[32];	 /* the conversion as written, "%-10s", "%08lx"; for %p its extension too */
	const char *text; /* P_TEXT, escapes undone */
	uint32_t arg, width_arg; /* nodes; TF_NONE */
};

struct perfev_tp_format {
	const struct perfev_tracefmt *set; /* byte order and long size */
	struct tf_chunk *arena;
	const char *sys, *name;
	uint64_t id;
	struct perfev_tp_field *fields;
	size_t nr_fields, cap_fields;
	const char *print_fmt;
	struct tf_node *nodes;
	size_t nr_nodes;
	struct tf_piece *pieces;
	size_t nr_pieces;
	const char *print_error; /* NULL: the print fmt is understood */
};

/* A kernel address of a string that a "%s" of a pointer-sized field prints (printk_formats). */
struct tf_printk {
	uint64_t addr;
	const char *str;
};

struct perfev_tracefmt {
	struct perfev_tp_format **formats;
	size_t nr, cap;
	bool swap;	    /* the raw data are in the other byte order */
	unsigned long_size; /* of the recording machine */
	struct tf_printk *printk; /* sorted by addr */
	size_t nr_printk;
	bool printk_loaded; /* from tracefs, once */
	struct tf_chunk *arena;
};

/* Adds the lines of a printk_formats file ("0xADDR : \"text\""); 0 or -ENOMEM. */
int tf_printk_parse(struct perfev_tracefmt *t, const char *text, size_t len);
/* The string at addr, or NULL. */
const char *tf_printk_find(const struct perfev_tracefmt *t, uint64_t addr);

/* Parses a format file's text into f (its arena holds everything); 0 or -PERFEV_ERR_FORMAT. */
int tf_format_parse(struct perfev_tp_format *f, const char *sys, const char *text, size_t len);
/* Parses f->print_fmt into nodes and pieces, or sets f->print_error. */
int tf_print_parse(struct perfev_tp_format *f);
/* Adds a parsed format to the set (taking it), or frees it: 0, -EEXIST, -ENOMEM. */
int tf_set_add(struct perfev_tracefmt *t, struct perfev_tp_format *f);
void tf_format_free(struct perfev_tp_format *f);

/* Reading raw data (eval.c). */
uint64_t tf_read_num(const struct perfev_tp_format *f, const void *raw, size_t size, size_t off,
		     size_t n);
/* The dynamic area of a __data_loc / __rel_loc field: offset and length (0, 0 when out of range). */
void tf_dynamic(const struct perfev_tp_format *f, const struct perfev_tp_field *fl,
		const void *raw, size_t size, uint32_t *off, uint32_t *len);
/* A node's value as a number. */
uint64_t tf_eval_num(const struct perfev_tp_format *f, uint32_t node, const void *raw,
		     size_t size, unsigned depth);

/* A growing text buffer that counts what did not fit. */
struct tf_out {
	char *buf;
	size_t size, len; /* len may exceed size: the whole length */
};
void tf_putc(struct tf_out *o, char c);
void tf_puts(struct tf_out *o, const char *s);
void tf_putn(struct tf_out *o, const char *s, size_t n);
void tf_printf(struct tf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A node's value as text, for %s (eval.c). */
void tf_eval_str(const struct perfev_tp_format *f, uint32_t node, const void *raw, size_t size,
		 const char *spec, int width, struct tf_out *o, unsigned depth);

/* The fields raw, as perf prints a format it cannot parse (print.c). */
void tf_print_fields(const struct perfev_tp_format *f, const void *raw, size_t size,
		     struct tf_out *o);

#endif
