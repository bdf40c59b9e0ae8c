#!/usr/bin/env python3
"""Compares what perf and perfev print for the same perf.data file.

usage: compare.py report PERF_OUTPUT PERFEV_OUTPUT [--dso NAME PERF_UNFILTERED]
       compare.py script PERF_OUTPUT PERFEV_OUTPUT

report: `perf report --stdio` against `perfev report --stdio`: per event, the
header (event name, sample count, event count), the column titles, and the
rows: the same rows (by their key columns), each percentage within 0.1
points, and below each row the same call graph (the same lines, each
percentage within 0.1 points).
script: `perf script` against `perfev script`, line for line, after the
normalisations of docs/perf-differences.md.
--dso NAME PERF_UNFILTERED: the outputs are of `--dso NAME` in children
mode; perf's rows of functions in other files (which it lists when the
first sample that reached them was taken in NAME) are left out, found by
their file in PERF_UNFILTERED, perf's report of the file without options,
and with them the width they give the symbol column.

Prints one line "rows M/N maxdiff D" (M of perf's N rows found in perfev's,
D the largest difference in points), then what differs; exits 1 when
anything differs.
"""
import re
import sys

TOLERANCE = 0.1

# Deliberate differences (docs/perf-differences.md), undone on perf's side before comparing.
# 1. glibc's internal aliases: perf names a libc function by the __GI_ alias of its debug
#    file's .symtab (__GI___libc_write), perfev by its public name (write).
#    Both are reduced to the bare name: "__GI_", "__libc_" (and libm's wrappers' "__wrap_")
#    and the underscores dropped.
GI_ALIAS = re.compile(r"\b(?:__GI_+|__libc_|__wrap_)(?:libc_)?([A-Za-z0-9_]+)")


#    Likewise an exported weak name against a local alias with leading underscores
#    (closedir, __closedir): names are compared without their leading underscores.
UNDERSCORES = re.compile(r"(?<![A-Za-z0-9_])_+(?=[A-Za-z])")
#    And an IFUNC's exported name against its local resolver alias (memrchr, memrchr_ifunc).
IFUNC = re.compile(r"(?<=[A-Za-z0-9])_ifunc\b")


# 2. Return addresses are looked up one byte before them: the return address of ld.so's
#    `call _dl_start` in _start is the first byte of the label _dl_start_user, which perf
#    names and perfev names _start, the caller (in script, the address shows it: see
#    compare_script).  Rows of the two names merge (merged_rows).
DL_START_USER = re.compile(r"\bdl_start_user\b")
# 3. The level of an unresolved address outside the kernel's half: perf prints the level of
#    the frame it resolved before ([k] below a kernel sample), perfev [.] (the address came
#    from the user part of the stack: a user address, or garbage the frame pointers led to).
UNKNOWN_USER_K = re.compile(r"(\[unknown\] +)\[k\](?= (?:0x)?(?!0*ffff[89a-f])[0-9a-f]+$)", re.M)


# Names that the normalisations above join: two branches (or rows) each below perf's
# 0.5% threshold of the call graphs can make one above it in perfev's, which perf then
# does not show; such a branch or graph of perfev's is let through.
JOINED = {"start"}
JOINED_BELOW = 1.0
JOINED_THRESHOLD = 0.5  # perf's call-graph threshold (percent)


# 4. An unresolved address in a file: perf shows it as the address in the file where the
#    sample was taken (a row of its Self) and as the address in the process where it
#    called (a second row, of its Children; in graphs too), perfev as the address in the
#    file throughout, one row.  Both are compared by their last three hex digits (the same
#    in both forms: maps start at page boundaries), in report texts only (script prints
#    each as perf does); merged_rows joins perf's two rows.
ADDRESS = re.compile(r"\b0x0*([0-9a-f]*?)([0-9a-f]{1,3})\b")


def addresses(text):
    """Report text with unresolved addresses reduced to their last three hex digits."""
    return ADDRESS.sub(lambda m: "0x~" + m.group(2), text)


# 6. Code in a memfd (a JIT's, in practice): perf 6.1 names it by the memfd
#    ("memfd:sealed-91173221a7ea (deleted)"), perfev as anonymous JIT code, perf-PID.map,
#    where JITs write its symbols.  Both become "<jit>" in report texts.
JIT = re.compile(r"\bmemfd:\S+(?: \(deleted\))?|\bperf-[0-9]+\.map\b")


def jit_maps(text):
    return JIT.sub("<jit>", text)


def deliberate(text):
    """A text with the names deliberately different reduced to what both tools agree on."""
    text = IFUNC.sub("", UNDERSCORES.sub("", GI_ALIAS.sub(lambda m: m.group(1), text)))
    return UNKNOWN_USER_K.sub(r"\1[.]", DL_START_USER.sub("start", text))
PCT = re.compile(r"(-?[0-9]+\.[0-9]+)%")


def sections(text):
    """Splits a report into its events: [(header lines, body lines)]."""
    out = []
    cur = None
    for line in text.splitlines():
        if line.startswith("# Samples:"):
            cur = ([line], [])
            out.append(cur)
            continue
        if cur is None:
            continue
        if line.startswith("#"):
            if line.startswith("# Event count") or line.startswith("# Total Lost") or \
                    line.startswith("# Overhead") or line.startswith("# Children") or \
                    line.startswith("# Self") or line.startswith("# Samples") or \
                    re.match(r"# +[A-Z][a-z]", line) or line.startswith("# ....."):
                cur[0].append(line)
            continue
        cur[1].append(line.rstrip())
    return out


ROW = re.compile(r"^ +(-?[0-9]+\.[0-9]+%|[0-9]+ )")


def rows(body):
    """The table's rows: [(values, keys, graph lines)]."""
    out = []
    for line in body:
        if not line:
            continue
        if ROW.match(line) and not line.lstrip().startswith("|") and "--" not in line[:20]:
            fields = re.split(r"\s{2,}", line.strip())
            vals = []
            while fields and re.fullmatch(r"-?[0-9.]+%|[0-9]+", fields[0]):
                vals.append(fields.pop(0))
            out.append((vals, tuple(fields), []))
        elif out:
            out[-1][2].append(line)
    return out


def num(v):
    return float(v.rstrip("%"))


BRANCH = re.compile(r"--(-?[0-9]+\.[0-9]+)%--")


def graph_tree(lines):
    """A call graph's text as a tree: each node [percent or None, [names], [children]]."""
    root = [None, [], []]
    stack = [(-1, root)]  # (column of the node's "--", node)
    for line in lines:
        body = line.rstrip()
        if not body.strip(" |"):
            continue  # a separator
        m = BRANCH.search(body)
        if m and not body[:m.start()].strip(" |"):
            col = m.start()
            while len(stack) > 1 and stack[-1][0] >= col:
                stack.pop()
            node = [float(m.group(1)), [body[m.end():]], []]
            stack[-1][1][2].append(node)
            stack.append((col, node))
            continue
        stripped = body.lstrip(" |")
        if stripped.startswith("---"):
            root[1].append(stripped[3:])
            continue
        col = len(body) - len(stripped)
        while len(stack) > 1 and stack[-1][0] >= col:
            stack.pop()
        stack[-1][1][1].append(stripped)
    return root


def add_pct(a, b):
    return None if a is None or b is None else a + b


def trie_add(dst, node):
    """Adds graph-tree node (its line of frames, then its branches) into trie dst."""
    cur, pct = dst, node[0]
    for name in node[1]:
        ent = cur.get(name)
        if ent is None:
            cur[name] = ent = [pct, {}]
        else:
            ent[0] = add_pct(ent[0], pct)
        cur = ent[1]
    for kid in node[2]:
        trie_add(cur, kid)


def graph_trie(lines, into=None):
    """A call graph as a trie of single frames, {name: [percent or None, {...}]}: each frame
    of a straight line carries the line's percent; same-named siblings (names that the
    normalisations made equal) are merged, their percentages added."""
    trie = {} if into is None else into
    trie_add(trie, graph_tree(lines))
    return trie


def trie_diff(a, b, where, problems):
    """Compares two tries; the worst difference."""
    worst = 0.0
    for name, (pct, kids) in a.items():
        if name not in b:
            problems.append("%s: perfev has no branch %s %s" % (
                where, "%.2f%%" % pct if pct is not None else "-", name))
            continue
        vpct, vkids = b[name]
        here = "%s > %s" % (where, name)
        if pct is not None and vpct is not None:
            d = abs(pct - vpct)
            # A joined branch may also hold a sibling of the other name that stayed below
            # perf's threshold (perf showed it nowhere): perfev's then exceeds perf's by less.
            if name in JOINED and 0 < vpct - pct < JOINED_THRESHOLD:
                d = 0.0
            worst = max(worst, d)
            if d > TOLERANCE + 1e-9:
                problems.append("%s: perf %.2f%%, perfev %.2f%%" % (here, pct, vpct))
        worst = max(worst, trie_diff(kids, vkids, here, problems))
    for name, (pct, _) in b.items():
        if name in JOINED and (pct is None or pct < JOINED_BELOW):
            continue
        if name not in a:
            problems.append("%s: perfev has an extra branch %s %s" % (
                where, "%.2f%%" % pct if pct is not None else "-", name))
    return worst


def merged_rows(body):
    """The rows by their keys, {keys: (values, graph trie)}; rows whose keys the
    normalisations made equal are merged (values added, graphs merged).  Twins of an
    unresolved address (see ADDRESS) keep the larger Children and add Self, and their
    graph is not compared (None)."""
    out = {}
    for vals, keys, graph in rows(body):
        if keys in out:
            old, trie = out[keys]
            twins = keys[-1].startswith("[.] 0x") and len(vals) == 2
            vals = ["-" if "-" in (a, b) else "%.2f%%" % (num(a) + num(b)) if a.endswith("%")
                    else str(int(a) + int(b)) for a, b in zip(old, vals)]
            if twins:
                # perf splits the Children of the address between its two rows in ways
                # that depend on each chain: only Self is compared ("-")
                vals[0] = "-"
                trie = None
            out[keys] = (vals, graph_trie(graph, trie) if trie is not None else None)
        else:
            out[keys] = (vals, graph_trie(graph))
    return out


def other_files_rows(full_text, dso):
    """(comm, symbol) of the rows of perf's unfiltered report not in file dso, and of those
    in it (an unresolved address under either level: the filtered text keeps perf's)."""
    keep, other = set(), set()
    for _, body in sections(full_text):
        for _, keys, _ in rows(body):
            if len(keys) == 3:
                names = {keys[2]}
                if keys[1] == "[unknown]":
                    names |= {"[k]" + keys[2][3:], "[.]" + keys[2][3:]}
                for n in names:
                    (keep if keys[1] == dso else other).add((keys[0], n))
    return other - keep, keep


VALUE_TITLES = ("Children", "Self", "Overhead", "Samples", "Period")


def comm_column(header):
    """(index among the keys, width) of the Command column of a section's header, or None."""
    at = [i for i, l in enumerate(header) if l.startswith("# ....")]
    if not at or not at[0]:
        return None
    names = re.split(r"\s{2,}", header[at[0] - 1][2:].strip())
    widths = [len(d) for d in header[at[0]][2:].split("  ")]
    if "Command" not in names or len(widths) != len(names):
        return None
    i = names.index("Command")
    return i - sum(1 for n in names if n in VALUE_TITLES), widths[i]


def truncate_comm(body, col):
    """5. perf prints commands cut to the width of its Command column, which it takes from
    the threads' last names, not from the names it shows (pyenv-version-f as pyenv-ve
    when the longest last name is readlink); perfev's whole names are cut as perf's
    before comparing (rows that then agree are merged)."""
    idx, width = col
    out = []
    for line in body:
        m = ROW.match(line)
        if m and not line.lstrip().startswith("|") and "--" not in line[:20]:
            parts = re.split(r"(\s{2,})", line.strip())
            nvals = 0
            while nvals * 2 < len(parts) and re.fullmatch(r"-?[0-9.]+%|[0-9]+", parts[nvals * 2]):
                nvals += 1
            k = (nvals + idx) * 2
            if k < len(parts) and len(parts[k]) > width:
                parts[k] = parts[k][:width]
                line = "  " + "".join(parts)
        out.append(line)
    return out


def wider_last_column(a, b):
    """The unresolved address again: perf keeps a second, process-address entry of an
    unresolved frame (0x7f...: 18 characters) that it may not print, and sizes the Symbol
    column by it too; the dots then differ only in the last column, perf's the wider."""
    da, db = a[2:].rstrip().split("  "), b[2:].rstrip().split("  ")
    return len(da) == len(db) and da[:-1] == db[:-1] and len(da[-1]) > len(db[-1])


def compare_report(ptext, vtext, dso_rows=None, loose=False):
    ps, vs = sections(ptext), sections(vtext)
    problems = []
    total = matched = 0
    worst = 0.0
    if len(ps) != len(vs):
        problems.append("perf shows %d events, perfev %d" % (len(ps), len(vs)))
    for (ph, pb), (vh, vb) in zip(ps, vs):
        pcol, vcol = comm_column(ph), comm_column(vh)
        cut = pcol and vcol and pcol[0] == vcol[0] and pcol[1] < vcol[1]
        # 5. again: perf's Command column may also be wider than every name it shows (a
        # thread's longer last name, of a thread without rows); the titles then differ only
        # in spaces and dots.
        wide = pcol and vcol and pcol[0] == vcol[0] and pcol[1] > vcol[1]
        if cut:
            vb = truncate_comm(vb, pcol)
        for a, b in zip(ph, vh):
            if (dso_rows is not None or cut or wide or loose) and a.startswith("# ...."):
                # the widths perf's rows of other files give (see --dso above)
                a, b = (re.sub(r"\.+", ".", x) for x in (a, b))
            if (cut or wide or loose) and re.match(r"# +[A-Z][a-z]+ ", a) and "Command" in a:
                a, b = (re.sub(r"\s+", " ", x) for x in (a, b))
            if a.startswith("# ....") and wider_last_column(a, b):
                continue
            if a.rstrip() != b.rstrip():
                problems.append("header: perf %r, perfev %r" % (a.rstrip(), b.rstrip()))
        if len(ph) != len(vh):
            problems.append("header: perf has %d lines, perfev %d" % (len(ph), len(vh)))
        prow, vrow = merged_rows(pb), merged_rows(vb)
        for keys, (vals, trie) in prow.items():
            if dso_rows is not None and tuple(keys[:1]) + tuple(keys[-1:]) in dso_rows[0]:
                continue
            total += 1
            if keys not in vrow:
                problems.append("missing row %s %s" % (" ".join(vals), "  ".join(keys)))
                continue
            other = vrow.pop(keys)
            matched += 1
            where = "row %s" % "  ".join(keys)
            for x, y in zip(vals, other[0]):
                if "-" in (x, y):
                    continue
                d = abs(num(x) - num(y))
                worst = max(worst, d)
                if d > TOLERANCE + 1e-9:
                    problems.append("%s: perf %s, perfev %s" % (where, x, y))
            if len(vals) != len(other[0]):
                problems.append("%s: perf has %d values, perfev %d" % (where, len(vals), len(other[0])))
            if trie is not None and other[1] is not None:
                worst = max(worst, trie_diff(trie, other[1], where + " graph", problems))
        for keys, (vals, _) in vrow.items():
            # perf leaves out a row of the file when the first sample that reached it was
            # taken elsewhere (see --dso above): a caller's row (Self 0) it has unfiltered
            if dso_rows is not None and tuple(keys[:1]) + tuple(keys[-1:]) in dso_rows[1] and \
                    len(vals) == 2 and num(vals[1]) == 0:
                continue
            problems.append("extra row %s %s" % (" ".join(vals), "  ".join(keys)))
    return total, matched, worst, problems


FRAME = re.compile(r"^\t *([0-9a-f]+) (.*)\+0x([0-9a-f]+) \((.*)\)$")
UNNAMED = re.compile(r"^\t *([0-9a-f]+) \[unknown\] \((.*)\)$")
INLINED_AT = re.compile(r"^\t *([0-9a-f]+) (.*)\+0x([0-9a-f]+) \(inlined\)$")


def same_line(a, b):
    """Script lines that agree, or a call-chain frame whose return address is the first
    byte of a function: perf names that function (+0x0), perfev the caller, looked up one
    byte before (docs/perf-differences.md), or nothing when no symbol covers the caller
    (a static function of a stripped program)."""
    if a == b:
        return True
    ma, mb = FRAME.match(a), FRAME.match(b)
    # A function whose DWARF name is an alias perf chooses and perfev does not (cosf's IFUNC
    # resolver __cosf_ifunc, perfev's cosf): perf prints its own symbol's line, perfev's
    # DWARF name marked inlined; after the alias normalisation the names are the same.
    mi = INLINED_AT.match(b)
    if ma and mi:
        return (ma.group(1) == mi.group(1) and ma.group(2) == mi.group(2) and
                ma.group(3) == mi.group(3))
    # ...and the other way round, under an alias of another name at the same address (libc's
    # memmove_avx512_unaligned_erms, whose DWARF name is memcpy_avx512_unaligned_erms): perf
    # prints the DWARF name marked inlined instead of its symbol's line, perfev the symbol.
    # The same address and offset make it the same function's start under another name.
    mp = INLINED_AT.match(a)
    if mp and mb:
        return mp.group(1) == mb.group(1) and mp.group(3) == mb.group(3)
    if ma and mb:
        return (ma.group(1) == mb.group(1) and ma.group(4) == mb.group(4) and
                int(ma.group(3), 16) == 0 and int(mb.group(3), 16) > 0)
    mu = UNNAMED.match(b)
    if ma and mu:
        return (int(ma.group(3), 16) == 0 and ma.group(1) == mu.group(1) and
                ma.group(4) == mu.group(2))
    # ...or perf finds no function at the return address and perfev finds the caller
    mu = UNNAMED.match(a)
    return bool(mu and mb and mu.group(1) == mb.group(1) and mu.group(2) == mb.group(4) and
                int(mb.group(3), 16) > 0)


INLINED = re.compile(r"^\t *([0-9a-f]+) .* \(inlined\)$")
ADDR_OF = re.compile(r"^\t *([0-9a-f]+) ")


def misnamed_inline(a, a_next, b):
    """7. perf 6.1 (through binutils' addr2line) sometimes names an inlined frame after the
    function it is inlined into, and then prints that function twice (lib_hash+0x26 twice
    where mix is inlined into lib_hash); perfev names it from DWARF as llvm-symbolizer does
    (mix+0x26 (inlined)).  perf's line a, repeated as a_next, against perfev's line b, an
    inlined frame at the same address."""
    mi, ma = INLINED.match(b), ADDR_OF.match(a)
    return bool(mi and ma and mi.group(1) == ma.group(1) and a == a_next and
                not a.endswith("(inlined)"))


NOWHERE = re.compile(r"^\t *([0-9a-f]+) \[unknown\] \(\[unknown\]\)$")
NAMED = re.compile(r"^\t *[0-9a-f]+ [^\[].*\)$")


def lost_end(pl, i, vl, j):
    """8. perf's DWARF unwinder sometimes ends a stack in a frame at an address below the
    first page, never mapped (a lost caller), where perfev unwinds on to the program's
    exit path: perf's line i is such a frame and its stack's last; perfev's lines from j
    to the end of its stack are named frames.  The number of perfev lines taken, or 0."""
    m = NOWHERE.match(pl[i])
    if not m or int(m.group(1), 16) >= 0x1000 or (i + 1 < len(pl) and pl[i + 1] != ""):
        return 0
    k = j
    while k < len(vl) and vl[k] != "":
        if not NAMED.match(vl[k]):
            return 0
        k += 1
    return k - j


# 9. A sample in a PLT entry of a program whose PLT perf 6.1 does not name (a clang-built
#    one): perf stretches _init, the symbol before, over the PLT (_init+0x36, "init" once
#    reduced), perfev names the entry (printf@plt+0x6).  In script the two lines must show
#    the same address in the same file; in report texts (rows and graphs, without
#    addresses) a NAME@plt of perfev's that perf never prints becomes init when perf
#    prints init, and rows and branches that then agree are merged.
#    A name ends a row ("[.] NAME") or a graph line; demangled ones hold spaces
#    ("operator new@plt").
PLT_ROW = re.compile(r"^(.*\[\.\] )(.+)$")
PLT_GRAPH = re.compile(r"^([ |]*(?:--[0-9.]+%--|---)?)([^ |].*)$")


def frame_names(text):
    """(line, prefix, name) of each line ending in a frame's name: rows and graph lines."""
    for line in text.splitlines():
        m = PLT_ROW.match(line) if ROW.match(line) else PLT_GRAPH.match(line)
        if m and not line.startswith("#"):
            yield line, m.group(1), m.group(2)


def plt_as_init(ptext, vtext):
    """perfev's report text with the PLT entries perf names init renamed (see 9)."""
    names = {name for _, _, name in frame_names(ptext)}
    if "init" not in names:
        return vtext
    out = []
    for line in vtext.splitlines():
        for _, prefix, name in frame_names(line):
            if name.endswith("@plt") and name not in names:
                line = prefix + "init"
        out.append(line)
    return "\n".join(out) + "\n"


def plt_line(a, b):
    """perf's script line a names init+OFF where perfev's b names NAME@plt at the same
    address of the same file (see 9)."""
    ma, mb = FRAME.match(a), FRAME.match(b)
    return bool(ma and mb and ma.group(2) == "init" and mb.group(2).endswith("@plt") and
                ma.group(1) == mb.group(1) and ma.group(4) == mb.group(4))


def compare_script(ptext, vtext):
    pl, vl = ptext.splitlines(), vtext.splitlines()
    problems = []
    same = 0
    i = j = 0
    while i < len(pl) and j < len(vl):
        if same_line(pl[i], vl[j]) or plt_line(pl[i], vl[j]):
            same += 1
            i += 1
            j += 1
        elif misnamed_inline(pl[i], pl[i + 1] if i + 1 < len(pl) else "", vl[j]):
            same += 1
            i += 1
            j += 1
        elif lost_end(pl, i, vl, j):
            same += 1
            j += lost_end(pl, i, vl, j)
            i += 1
        else:
            problems.append("line %d: perf %r, perfev %r" % (i + 1, pl[i], vl[j]))
            i += 1
            j += 1
    if i < len(pl) or j < len(vl):
        problems.append("perf prints %d lines, perfev %d (%d and %d compared)" %
                        (len(pl), len(vl), i, j))
    return len(pl), same, 0.0, problems


def main():
    args = sys.argv[1:]
    dso_rows = None
    if len(args) == 6 and args[0] == "report" and args[3] == "--dso":
        with open(args[5], errors="replace") as f:
            dso_rows = other_files_rows(addresses(jit_maps(deliberate(f.read()))), args[4])
        args = args[:3]
    if len(args) != 3 or args[0] not in ("report", "script"):
        sys.exit(__doc__)
    with open(args[1], errors="replace") as f:
        ptext = deliberate(f.read())
    with open(args[2], errors="replace") as f:
        vtext = deliberate(f.read())
    if args[0] == "report":
        pj, vj = jit_maps(ptext), jit_maps(plt_as_init(ptext, vtext))
        total, matched, worst, problems = compare_report(addresses(pj), addresses(vj), dso_rows,
                                                         loose=pj != ptext or vj != vtext)
    else:
        total, matched, worst, problems = compare_script(ptext, vtext)
    print("rows %d/%d maxdiff %.2f" % (matched, total, worst))
    for p in problems[:40]:
        print("  " + p)
    if len(problems) > 40:
        print("  ... and %d more" % (len(problems) - 40))
    sys.exit(1 if problems or not total else 0)


if __name__ == "__main__":
    main()
