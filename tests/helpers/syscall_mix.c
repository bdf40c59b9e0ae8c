/*
 * A program whose syscalls are known in advance, for comparing syscall
 * counters (perfev trace -s, strace -c -f, perf trace -s): in the main
 * thread, a child process and a second thread, each syscall a fixed number
 * of times, some failing.  Nothing depends on timing: the thread is joined
 * only after it said (through a pipe) that it is done and has had time to
 * end, and the child is reaped with waitpid.
 *
 *   main:   getppid x200, openat of a missing file x30 (ENOENT), close(-1) x17
 *           (EBADF), write to /dev/null x50, read of /dev/zero x25, nanosleep x5
 *   child:  getpid x77, uname x13, faccessat of a missing file x9 (ENOENT)
 *   thread: gettid x41, dup(-1) x11 (EBADF), then writes to the pipe once
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int done_pipe[2];

static void *thread_fn(void *arg)
{
	char c = 'x';

	(void)arg;
	for (int i = 0; i < 41; i++)
		syscall(SYS_gettid);
	for (int i = 0; i < 11; i++)
		syscall(SYS_dup, -1);
	if (write(done_pipe[1], &c, 1) != 1)
		_exit(2);
	return NULL;
}

int main(void)
{
	char buf[64] = "0123456789";
	struct timespec ms = { 0, 1000000 };
	pthread_t th;
	pid_t child;
	int fd, status;

	if (pipe(done_pipe))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		struct utsname u;

		for (int i = 0; i < 77; i++)
			syscall(SYS_getpid);
		for (int i = 0; i < 13; i++)
			syscall(SYS_uname, &u);
		for (int i = 0; i < 9; i++)
			syscall(SYS_faccessat, AT_FDCWD, "/nonexistent/perfev-test", F_OK, 0);
		syscall(SYS_exit_group, 0);
	}
	if (waitpid(child, &status, 0) != child)
		return 1;
	for (int i = 0; i < 200; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < 30; i++)
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/perfev-test", O_RDONLY);
	for (int i = 0; i < 17; i++)
		syscall(SYS_close, -1);
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);
	for (int i = 0; i < 50; i++)
		syscall(SYS_write, fd, buf, 10);
	syscall(SYS_close, fd);
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/zero", O_RDONLY);
	for (int i = 0; i < 25; i++)
		syscall(SYS_read, fd, buf, 1);
	syscall(SYS_close, fd);
	for (int i = 0; i < 5; i++)
		syscall(SYS_nanosleep, &ms, NULL);
	if (pthread_create(&th, NULL, thread_fn, NULL))
		return 1;
	if (read(done_pipe[0], buf, 1) != 1)
		return 1;
	/* Long enough for the thread to have ended, so that joining it waits on nothing. */
	syscall(SYS_nanosleep, &(struct timespec){ 0, 50000000 }, NULL);
	pthread_join(th, NULL);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
