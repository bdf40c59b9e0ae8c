/* SPDX-License-Identifier: MIT */
/*
 * perfev completion: the bash completion script, made from the option
 * tables, so it completes exactly the options --help shows: subcommands,
 * options, and their values (event names from 'perfev list', files,
 * processes, CPUs, cgroups, sort keys and other fixed words).
 */
#include <string.h>

#include "cli.h"
#include "opt.h"

static const char *const kind_names[] = {
	[COMP_NONE] = "none",	  [COMP_FILE] = "file",	  [COMP_EVENT] = "event",
	[COMP_PID] = "pid",	  [COMP_CPUS] = "cpus",	  [COMP_CGROUP] = "cgroup",
	[COMP_WORD] = "word",	  [COMP_WORDS] = "words", [COMP_COMMAND] = "command",
};

/*
 * The part that does not depend on the tables.  Words are split at white
 * space from COMP_LINE (so "sched:sched_switch" and "--event=x" stay one
 * word), and each reply loses what bash takes as an earlier word (up to the
 * last character of COMP_WORDBREAKS).
 */
static const char script_body[] =
	"# _perfev_complete PREFIX CUR KIND [WORD...]: COMPREPLY for CUR, a value of KIND\n"
	"_perfev_complete()\n"
	"{\n"
	"\tlocal pre=$1 cur=$2 kind=$3 head= typed cut= wb c\n"
	"\tlocal -a cands=()\n"
	"\tshift 3\n"
	"\t# a list: complete its last item (of script -F's, the one after + or -)\n"
	"\tcase $kind in\n"
	"\tevent|cpus) head=${cur%\"${cur##*[,{]}\"} ;;\n"
	"\twords) head=${cur%\"${cur##*[,+-]}\"} ;;\n"
	"\tesac\n"
	"\tcur=${cur#\"$head\"}\n"
	"\tcase $kind in\n"
	"\tevent) mapfile -t cands < <(compgen -W \"$(\"$_perfev_tool\" list 2>/dev/null |\n"
	"\t\tawk '/^  [^ ]/ && $1 !~ /[<[]/ { print $1 }')\" -- \"$cur\") ;;\n"
	"\tpid) mapfile -t cands < <(compgen -W \"$(cd /proc && echo [0-9]*)\" -- \"$cur\") ;;\n"
	"\tcpus) mapfile -t cands < <(compgen -W \"$(seq 0 $(($(getconf _NPROCESSORS_ONLN) - 1)))\" \\\n"
	"\t\t-- \"$cur\") ;;\n"
	"\tcgroup)\n"
	"\t\tmapfile -t cands < <(compgen -d -- \"/sys/fs/cgroup/$cur\")\n"
	"\t\tcands=(\"${cands[@]#/sys/fs/cgroup/}\") ;;\n"
	"\tword|words) mapfile -t cands < <(compgen -W \"$*\" -- \"$cur\") ;;\n"
	"\tfile)\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tmapfile -t cands < <(compgen -f -- \"$cur\") ;;\n"
	"\tcommand) mapfile -t cands < <(compgen -c -- \"$cur\") ;;\n"
	"\tesac\n"
	"\ttyped=$pre$head$cur\n"
	"\twb=${COMP_WORDBREAKS//[[:space:]]/}\n"
	"\tif [[ -n $wb && $typed == *[\"$wb\"]* ]]; then\n"
	"\t\tcut=${typed%\"${typed##*[\"$wb\"]}\"}\n"
	"\tfi\n"
	"\tCOMPREPLY=()\n"
	"\tfor c in \"${cands[@]}\"; do\n"
	"\t\tc=$pre$head$c\n"
	"\t\tCOMPREPLY+=(\"${c#\"$cut\"}\")\n"
	"\tdone\n"
	"}\n"
	"\n"
	"_perfev()\n"
	"{\n"
	"\tlocal line=${COMP_LINE:0:COMP_POINT} cmd cur pre= valopt= start=0 i n operands\n"
	"\tlocal -a w\n"
	"\tread -r -a w <<<\"$line\"\n"
	"\t[[ ${#w[@]} == 0 || $line == *[[:space:]] ]] && w+=('')\n"
	"\t_perfev_tool=${w[0]/#\\~/$HOME}\n"
	"\tn=$((${#w[@]} - 1))\n"
	"\tcur=${w[n]}\n"
	"\tCOMPREPLY=()\n"
	"\tif ((n == 1)); then\n"
	"\t\t_perfev_complete '' \"$cur\" word $_perfev_commands help -h --help -v --version\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcmd=${w[1]}\n"
	"\tif [[ $cmd == help ]]; then\n"
	"\t\t((n == 2)) && _perfev_complete '' \"$cur\" word $_perfev_commands\n"
	"\t\treturn\n"
	"\tfi\n"
	"\toperands=$(_perfev_operands \"$cmd\")\n"
	"\t# The words before cur: an option's value is skipped; the command to run starts at\n"
	"\t# the first other word, or after \"--\".\n"
	"\tfor ((i = 2; i < n; i++)); do\n"
	"\t\tcase ${w[i]} in\n"
	"\t\t--) [[ $operands == command ]] && { start=$((i + 1)); break; } ;;\n"
	"\t\t--*=*) ;;\n"
	"\t\t-?*)\n"
	"\t\t\tif _perfev_value \"$cmd\" \"${w[i]}\" >/dev/null; then\n"
	"\t\t\t\t((i + 1 == n)) && valopt=${w[i]}\n"
	"\t\t\t\t((i++))\n"
	"\t\t\tfi ;;\n"
	"\t\t*) [[ $operands == command ]] && { start=$i; break; } ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tif ((!start)) && [[ -z $valopt && $cur == --*=* ]]; then\n"
	"\t\tvalopt=${cur%%=*}\n"
	"\t\tpre=$valopt=\n"
	"\t\tcur=${cur#*=}\n"
	"\tfi\n"
	"\tif [[ -n $valopt ]]; then\n"
	"\t\t_perfev_complete \"$pre\" \"$cur\" $(_perfev_value \"$cmd\" \"$valopt\")\n"
	"\telif ((start)); then\n"
	"\t\t# the command to run, then its arguments\n"
	"\t\tif ((n == start)); then\n"
	"\t\t\t_perfev_complete '' \"$cur\" command\n"
	"\t\telse\n"
	"\t\t\t_perfev_complete '' \"$cur\" file\n"
	"\t\tfi\n"
	"\telif [[ $cur == -* ]]; then\n"
	"\t\t_perfev_complete '' \"$cur\" word $(_perfev_options \"$cmd\")\n"
	"\telse\n"
	"\t\t_perfev_complete '' \"$cur\" $operands\n"
	"\tfi\n"
	"}\n"
	"complete -F _perfev perfev\n";

/* The words of a comma-separated list, space-separated. */
static void put_words(FILE *f, const char *words)
{
	for (const char *p = words; p && *p; p++)
		fputc(*p == ',' ? ' ' : *p, f);
}

static void put_kind(FILE *f, enum opt_comp comp, const char *words)
{
	fputs(kind_names[comp], f);
	if (words) {
		fputc(' ', f);
		put_words(f, words);
	}
}

static bool put_tables(FILE *f)
{
	struct opt_item items[OPT_MAX];
	int n;

	fputs("_perfev_commands='", f);
	for (size_t i = 0; i < cli_nr_commands; i++)
		fprintf(f, "%s%s", i ? " " : "", cli_commands[i].opt->name);
	fputs("'\n\n# _perfev_options CMD: CMD's options\n_perfev_options()\n{\n\tcase $1 in\n", f);
	for (size_t i = 0; i < cli_nr_commands; i++) {
		const struct opt_cmd *c = cli_commands[i].opt;

		if ((n = opt_items(c, items)) < 0)
			return false;
		fprintf(f, "\t%s) echo '", c->name);
		for (int k = 0; k < n; k++) {
			const struct opt *o = items[k].o;

			if (o->key < 256)
				fprintf(f, "%s-%c", k ? " " : "", o->key);
			if (o->name)
				fprintf(f, "%s--%s", k || o->key < 256 ? " " : "", o->name);
			if (o->alias)
				fprintf(f, " --%s", o->alias);
		}
		fputs("' ;;\n", f);
	}
	fputs("\tesac\n}\n\n"
	      "# _perfev_value CMD OPTION: how OPTION's value completes (a kind, then words);\n"
	      "# fails when it takes no value\n_perfev_value()\n{\n\tcase \"$1 $2\" in\n", f);
	for (size_t i = 0; i < cli_nr_commands; i++) {
		const struct opt_cmd *c = cli_commands[i].opt;

		n = opt_items(c, items);
		for (int k = 0; k < n; k++) {
			const struct opt *o = items[k].o;
			const char *sep = "\t";

			if (!o->arg)
				continue;
			if (o->key < 256) {
				fprintf(f, "%s'%s -%c'", sep, c->name, o->key);
				sep = "|";
			}
			if (o->name) {
				fprintf(f, "%s'%s --%s'", sep, c->name, o->name);
				sep = "|";
			}
			if (o->alias)
				fprintf(f, "|'%s --%s'", c->name, o->alias);
			fputs(") echo ", f);
			put_kind(f, o->comp, o->words);
			fputs(" ;;\n", f);
		}
	}
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n"
	      "# _perfev_operands CMD: how CMD's words that are not options complete\n"
	      "_perfev_operands()\n{\n\tcase $1 in\n",
	      f);
	for (size_t i = 0; i < cli_nr_commands; i++) {
		const struct opt_cmd *c = cli_commands[i].opt;

		fprintf(f, "\t%s) echo ", c->name);
		put_kind(f, c->operand_comp, c->operand_words);
		fputs(" ;;\n", f);
	}
	fputs("\tesac\n}\n\n", f);
	return true;
}

const struct opt_cmd completion_cmd = {
	.name = "completion",
	.summary = "print the bash completion of perfev's commands and options",
	.synopsis = "[bash]",
	.about = "Writes a bash script that completes perfev's subcommands, their options and the "
		 "options' values (event names, files, processes, CPUs, sort keys); load it with "
		 "'source <(perfev completion bash)'.",
	.opts = (const struct opt[]){ OPT_END },
	.operands = OPERANDS_WORDS,
	.operand_comp = COMP_WORD,
	.operand_words = "bash",
};

int cmd_completion(int argc, char **argv)
{
	struct cli_args a = { 0 };
	int ret;

	if (!opt_parse(&completion_cmd, argc, argv, &a, NULL, &ret))
		goto out;
	ret = 1;
	for (int i = 0; i < a.nr_operands; i++) {
		if (strcmp(a.operands[i], "bash")) {
			cli_error("'%s' is not a shell perfev completes; it completes bash", a.operands[i]);
			goto out;
		}
	}
	fputs("# bash completion for perfev, made by 'perfev completion bash' from its option tables\n"
	      "\n",
	      stdout);
	if (!put_tables(stdout)) {
		cli_error("internal error: two options of a command have the same name");
		goto out;
	}
	fputs(script_body, stdout);
	ret = 0;
out:
	cli_args__free(&a);
	return ret;
}
