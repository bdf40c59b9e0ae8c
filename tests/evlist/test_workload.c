/*
 * A measured command does not outlive the tool measuring it: with a
 * parent-death signal it is killed when its parent dies, and a parent that
 * dies before the command could ask for the signal (the race between fork
 * and prctl) leaves a command that ends instead of running unmeasured.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "perfev/workload.h"

/* Waits up to ms for pid (a child of ours) to end; its wait status, or -1 if it still runs. */
static int wait_for(pid_t pid, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		int st;

		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(10000);
	}
	return -1;
}

/*
 * A parent (forked here) creates the command and starts it, then reports
 * the command's pid and is killed; the command becomes our child (we are
 * its subreaper), so its end can be waited for here.
 */
static pid_t orphan_command(int death_signal, unsigned delay_ms, pid_t *parent)
{
	int p[2];
	pid_t cmd = 0;

	assert_int_equal(pipe(p), 0);
	*parent = fork();
	assert_true(*parent >= 0);
	if (*parent == 0) {
		char *argv[] = { "sleep", "30", NULL };
		struct perfev_workload_opts o = { .sz = sizeof(o),
						  .parent_death_signal = death_signal };
		struct perfev_workload *w;
		pid_t c;

		workload__set_test_delay(delay_ms);
		w = perfev_workload__new_opts(argv, &o);
		c = w ? perfev_workload__pid(w) : -1;
		if (write(p[1], &c, sizeof(c)) != sizeof(c))
			_exit(1);
		/* Started: sleep execs, unless it finds its parent gone first. */
		perfev_workload__start(w);
		pause();
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &cmd, sizeof(cmd)), (ssize_t)sizeof(cmd));
	close(p[0]);
	assert_true(cmd > 0);
	return cmd;
}

static void kill_parent(pid_t parent)
{
	kill(parent, SIGKILL);
	assert_int_equal(waitpid(parent, NULL, 0), parent);
}

static void test_killed_parent_kills_the_command(void **state)
{
	pid_t parent, cmd;
	int st;

	(void)state;
	cmd = orphan_command(SIGKILL, 0, &parent);
	usleep(200000); /* sleep runs */
	kill_parent(parent);
	st = wait_for(cmd, 3000);
	assert_int_not_equal(st, -1);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

static void test_parent_dead_before_prctl(void **state)
{
	pid_t parent, cmd;
	int st;

	(void)state;
	/* The command waits 300 ms before prctl; its parent is killed after it said "go". */
	cmd = orphan_command(SIGKILL, 300, &parent);
	usleep(100000);
	kill_parent(parent);
	st = wait_for(cmd, 3000);
	if (st == -1)
		kill(cmd, SIGKILL), waitpid(cmd, NULL, 0);
	assert_int_not_equal(st, -1);
	/* It ended on its own, without exec'ing sleep. */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 127);
}

static void test_without_the_signal_the_command_runs_on(void **state)
{
	pid_t parent, cmd;

	(void)state;
	/* The default, as before: the caller decides. */
	cmd = orphan_command(0, 0, &parent);
	usleep(200000);
	kill_parent(parent);
	assert_int_equal(wait_for(cmd, 300), -1);
	kill(cmd, SIGKILL);
	assert_int_equal(waitpid(cmd, NULL, 0), cmd);
}

static void test_bad_signal(void **state)
{
	char *argv[] = { "true", NULL };
	struct perfev_workload_opts o = { .sz = sizeof(o), .parent_death_signal = 1000 };

	(void)state;
	assert_null(perfev_workload__new_opts(argv, &o));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "parent_death_signal"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_killed_parent_kills_the_command),
		cmocka_unit_test(test_parent_dead_before_prctl),
		cmocka_unit_test(test_without_the_signal_the_command_runs_on),
		cmocka_unit_test(test_bad_signal),
	};

	/* Orphans come to us, so their end can be waited for. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
