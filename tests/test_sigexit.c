/* test_sigexit.c — the signals that end rooftop: which they are, and dying of
 * one after removing a save's temporary file. Each death happens in a child. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "fileio.h"
#include "sigexit.h"

/* True when sig is among the n entries of sigs. */
static bool has(const int *sigs, size_t n, int sig)
{
    for (size_t i = 0; i < n; i++)
        if (sigs[i] == sig)
            return true;
    return false;
}

/* The two lists: every signal the issue names, none that stops, continues
 * or is ignored by default, none twice, and cap is respected. */
static void test_signal_lists(void **state)
{
    (void)state;
    int async[SIGEXIT_MAX], at_once[SIGEXIT_MAX];
    size_t na = sigexit_signals(SIGEXIT_ASYNC, async, SIGEXIT_MAX);
    size_t no = sigexit_signals(SIGEXIT_AT_ONCE, at_once, SIGEXIT_MAX);
    assert_true(na <= SIGEXIT_MAX && no <= SIGEXIT_MAX);
    const int want_async[] = {SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF};
    for (size_t i = 0; i < sizeof want_async / sizeof want_async[0]; i++)
        assert_true(has(async, na, want_async[i]));
    const int want_now[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof want_now / sizeof want_now[0]; i++)
        assert_true(has(at_once, no, want_now[i]));
#ifdef SIGRTMIN
    assert_true(has(async, na, SIGRTMIN) && has(async, na, SIGRTMAX));
#endif
    const int never[] = {SIGKILL, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGCHLD, SIGWINCH, SIGURG};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        assert_false(has(async, na, never[i]) || has(at_once, no, never[i]));
    for (size_t i = 0; i < na; i++) {
        assert_false(has(at_once, no, async[i]));
        assert_false(has(async, i, async[i]));
    }
    /* cap: the count is the whole list's, only cap entries are written. */
    int two[3] = {0, 0, -7};
    assert_int_equal(sigexit_signals(SIGEXIT_ASYNC, two, 2), na);
    assert_int_equal(two[0], async[0]);
    assert_int_equal(two[2], -7);
    assert_int_equal(sigexit_signals(SIGEXIT_AT_ONCE, NULL, 0), no);
    assert_int_equal(sigexit_signals((enum sigexit_kind)42, two, 3), 0);
}

/* Makes a file at path, failing the test if it cannot. */
static void touch(const char *path)
{
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
}

/* Runs child() in a child process and returns its wait status. */
static int in_child(void (*child)(const char *), const char *arg)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        child(arg);
        _exit(99);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* Child: records path as a save's temporary file and dies of SIGUSR1. */
static void die_of_usr1(const char *path)
{
    fileio_temp_path_set(path);
    sigexit_die(SIGUSR1);
}

/* Child: SIGUSR2's own handler is sigexit_die, with SIGUSR2 blocked while
 * it runs (as in any handler): it still dies of SIGUSR2. */
static void die_in_handler(const char *path)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sigexit_die;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    fileio_temp_path_set(path);
    raise(SIGUSR2);
}

/* Child: with SIGHUP ignored as under nohup, installs the command line's
 * handlers, reports what it found through its exit status when something
 * is wrong, else dies of SIGTERM. */
static void install_then_term(const char *path)
{
    signal(SIGHUP, SIG_IGN);
    if (sigexit_install() == 0)
        _exit(10);
    struct sigaction now;
    sigaction(SIGHUP, NULL, &now);
    if (now.sa_handler != SIG_IGN)
        _exit(11); /* an ignored signal was taken over */
    sigaction(SIGTERM, NULL, &now);
    if (now.sa_handler != sigexit_die)
        _exit(12);
    fileio_temp_path_set(path);
    kill(getpid(), SIGTERM);
    _exit(13); /* SIGTERM did not end us */
}

/* sigexit_die removes the recorded temporary file and the process dies of
 * the signal itself, called directly, from the signal's own handler, or as
 * installed by sigexit_install (which leaves ignored signals ignored). */
static void test_die_removes_the_temp_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-sig-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/.s.json.abc123", dir);

    touch(path);
    int st = in_child(die_of_usr1, path);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGUSR1);
    assert_int_equal(access(path, F_OK), -1);

    touch(path);
    st = in_child(die_in_handler, path);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGUSR2);
    assert_int_equal(access(path, F_OK), -1);

    touch(path);
    st = in_child(install_then_term, path);
    if (WIFEXITED(st))
        fail_msg("install_then_term exited %d", WEXITSTATUS(st));
    assert_int_equal(WTERMSIG(st), SIGTERM);
    assert_int_equal(access(path, F_OK), -1);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_lists),
        cmocka_unit_test(test_die_removes_the_temp_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
