/* test_pty_osc52.c — the real program in a pseudo-terminal: 'y' writes one
 * OSC 52 sequence (ESC ] 52 ; c ; base64 BEL) whose payload decodes to
 * exactly what `rooftop --report=markdown --plot` prints, and 'q' then exits
 * 0; and a storm of signals while the terminal is being given back (its
 * writes blocked on a full pty, each signal interrupting them) still ends
 * with every byte of the restore; and an answer to the background query
 * that comes late or in pieces is swallowed whole. The binary is $ROOFTOP (tests/run_all.sh sets it), else ./rooftop.
 * Source of the sequence: xterm's ctlseqs, "Operating System Commands",
 * Ps = 52 (manipulate selection data). */
#include "testutil.h"

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *binary(void)
{
    const char *b = getenv("ROOFTOP");
    return b && b[0] ? b : "./rooftop";
}

/* Reads from fd into buf (growing *len, NUL-terminated) until needle is in
 * it from offset `from`, or timeout_ms passes; returns where it starts, or NULL. */
static char *read_until(int fd, char *buf, size_t cap, size_t *len, size_t from, const char *needle, int timeout_ms)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        char *hit = *len > from ? strstr(buf + from, needle) : NULL;
        if (hit)
            return hit;
        struct timespec t1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long spent = (t1.tv_sec - t0.tv_sec) * 1000L + (t1.tv_nsec - t0.tv_nsec) / 1000000L;
        if (spent >= timeout_ms || *len + 1 >= cap)
            return NULL;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)(timeout_ms - spent)) <= 0)
            continue;
        ssize_t k = read(fd, buf + *len, cap - 1 - *len);
        if (k <= 0) {
            if (k < 0 && errno == EINTR)
                continue;
            return NULL; /* the child closed the terminal */
        }
        /* The pty may pass NUL bytes; keep the text searchable. */
        for (ssize_t i = 0; i < k; i++)
            if (buf[*len + (size_t)i] == '\0')
                buf[*len + (size_t)i] = ' ';
        *len += (size_t)k;
        buf[*len] = '\0';
    }
}

/* What `rooftop --report=markdown --plot` prints, read through a pipe. */
static char *report_markdown_plot(void)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --report=markdown --plot", binary());
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 20, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t k;
    while ((k = fread(text + n, 1, cap - 1 - n, p)) > 0)
        n += k;
    text[n] = '\0';
    assert_int_equal(pclose(p), 0);
    return text;
}

/* Starts rooftop on a new pseudo-terminal of rows x cols (TERM
 * xterm-256color, a UTF-8 locale, outside tmux); returns its pid, the
 * terminal's master side in *fd. */
static pid_t spawn(int rows, int cols, int *fd)
{
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    pid_t pid = forkpty(fd, NULL, NULL, &ws);
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("TMUX");
        unsetenv("COLORFGBG"); /* so that the explorer asks the terminal for its background */
        unsetenv("NO_COLOR");
        execl(binary(), "rooftop", (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void test_y_emits_osc52_of_the_report(void **state)
{
    (void)state;
    char *want = report_markdown_plot();
    int fd;
    pid_t pid = spawn(24, 80, &fd);
    static char buf[1 << 21];
    size_t len = 0;
    /* The first frame is up when the footer is drawn. */
    assert_non_null(read_until(fd, buf, sizeof buf, &len, 0, "help", 10000));
    size_t mark = len;
    assert_int_equal(write(fd, "y", 1), 1);
    char *start = read_until(fd, buf, sizeof buf, &len, mark, "\033]52;c;", 10000);
    assert_non_null(start);
    size_t payload = (size_t)(start - buf) + 7;
    char *end = read_until(fd, buf, sizeof buf, &len, payload, "\a", 10000);
    assert_non_null(end);
    char *got = test_base64_decode(buf + payload, (size_t)(end - (buf + payload)));
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    free(want);

    assert_int_equal(write(fd, "q", 1), 1);
    /* Wait up to 10 s for the exit, draining the terminal meanwhile (a
     * closed terminal reads as an error: then just wait). */
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && (done = waitpid(pid, &status, WNOHANG)) == 0; i++) {
        char drain[4096];
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0 || read(fd, drain, sizeof drain) < 0)
            usleep(50000);
    }
    if (done != pid) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("rooftop did not exit within 10 s of q");
    }
    close(fd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Drains fd until the child exits (up to 10 s); returns its status. */
static int drain_until_exit(int fd, pid_t pid, char *buf, size_t cap, size_t *len)
{
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 400 && (done = waitpid(pid, &status, WNOHANG)) == 0; i++)
        if (!read_until(fd, buf, cap, len, *len, "\001never\001", 25))
            usleep(25000); /* a closed terminal returns at once: wait for the exit itself */
    (void)read_until(fd, buf, cap, len, *len, "\001never\001", 100); /* what is left after the exit */
    if (done != pid) {
        char path[64], wchan[128] = "";
        snprintf(path, sizeof path, "/proc/%d/wchan", (int)pid);
        FILE *w = fopen(path, "r");
        if (w) {
            if (!fgets(wchan, sizeof wchan, w))
                wchan[0] = '\0';
            fclose(w);
        }
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("rooftop did not exit within 10 s of the storm (waiting in '%s')", wchan);
    }
    return status;
}

/* The explorer at 250x80 is asked to redraw (SIGWINCH with a new size)
 * while nothing reads the terminal, so that its writes block on the full
 * pty; then SIGTERM, and SIGWINCH, SIGCONT and SIGHUP again and again while
 * the restore is written: every write is interrupted. Once the terminal is
 * read again, what it received ends with the whole restore (xterm-256color:
 * rmcup ESC[?1049l, cnorm ESC[?25h, rmkx ESC>) after the last frame, and the
 * program dies of SIGTERM as a shell expects. Issue 23 saw 7 of 20 such
 * storms leave the alternate screen and a hidden cursor. */
static void test_restore_survives_a_signal_storm(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        int fd;
        pid_t pid = spawn(80, 250, &fd);
        static char buf[1 << 23];
        size_t len = 0;
        assert_non_null(read_until(fd, buf, sizeof buf, &len, 0, "help", 10000));
        usleep(100000);
        (void)read_until(fd, buf, sizeof buf, &len, len, "\001never\001", 100);
        /* redraws that nobody reads: the pty fills and the explorer's writes block */
        for (int i = 0; i < 6; i++) {
            struct winsize other = {.ws_row = (unsigned short)(70 + i), .ws_col = (unsigned short)(240 + i)};
            ioctl(fd, TIOCSWINSZ, &other);
            kill(pid, SIGWINCH);
            usleep(20000);
        }
        kill(pid, SIGTERM);
        for (int i = 0; i < 200; i++) {
            kill(pid, i % 3 == 0 ? SIGWINCH : i % 3 == 1 ? SIGCONT : SIGHUP);
            usleep(500);
        }
        int status = drain_until_exit(fd, pid, buf, sizeof buf, &len);
        close(fd);
        const char *last_enter = NULL;
        for (const char *p = buf; (p = strstr(p, "\033[?1049h")) != NULL; p++)
            last_enter = p;
        assert_non_null(last_enter);
        const char *leave = strstr(last_enter, "\033[?1049l");
        if (!leave)
            fail_msg("round %d: the alternate screen was never left (%zu bytes read)", round, len);
        assert_non_null(strstr(leave, "\033[?25h"));
        assert_non_null(strstr(leave, "\033>"));
        /* it dies of SIGTERM, or of SIGHUP when that came while the first was still unanswered (a stuck
           loop: the second ends the program at once, the terminal given back first) */
        assert_true(WIFSIGNALED(status));
        if (WTERMSIG(status) != SIGTERM && WTERMSIG(status) != SIGHUP)
            fail_msg("round %d: died of signal %d", round, WTERMSIG(status));
    }
}

/* Writes text to the terminal as the terminal's own answer would come. */
static void answer(int fd, const char *text)
{
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
}

/* Issue 21 item 10: the terminal answers the background query (OSC 11,
 * then the device attributes) late or in pieces: cut by the explorer's
 * 100 ms wait after "ESC ] 11 ; rg", or sent after the wait in two pieces
 * 150 ms apart. The rest must be swallowed whole: before, its "b" pinned a
 * baseline and its "e" opened the export prompt, into which 'q' was typed
 * instead of quitting. Now nothing is pinned or prompted and 'q' exits 0. */
static void late_split_reply(const char *first, int before_ms, int between_ms, const char *rest)
{
    int fd;
    pid_t pid = spawn(24, 80, &fd);
    static char buf[1 << 21];
    size_t len = 0;
    assert_non_null(read_until(fd, buf, sizeof buf, &len, 0, "\033[c", 10000)); /* the query is out */
    usleep((useconds_t)before_ms * 1000);
    answer(fd, first);
    usleep((useconds_t)between_ms * 1000);
    answer(fd, rest);
    assert_non_null(read_until(fd, buf, sizeof buf, &len, 0, "help", 10000));
    size_t mark = len;
    (void)read_until(fd, buf, sizeof buf, &len, mark, "\001never\001", 400); /* whatever the rest did */
    if (strstr(buf, "export to:") || strstr(buf, "baseline"))
        fail_msg("the reply's tail was read as keys (first '%s', then after %d ms the rest)", first + 1, between_ms);
    assert_int_equal(write(fd, "q", 1), 1);
    int status = drain_until_exit(fd, pid, buf, sizeof buf, &len);
    close(fd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_a_reply_cut_by_the_wait_is_swallowed(void **state)
{
    (void)state;
    late_split_reply("\033]11;rg", 0, 300, "b:1e1e/1e1e/1e1e\033\\\033[?62;c");
}

static void test_a_late_reply_in_two_pieces_is_swallowed(void **state)
{
    (void)state;
    late_split_reply("\033]11;rgb:1e1e/", 200, 150, "1e1e/1e1e\033\\\033[?62;c");
    late_split_reply("\033]11;rgb:1e1e/1e1e/1e1e\033\\\033[?6", 200, 150, "2;c");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_y_emits_osc52_of_the_report),
        cmocka_unit_test(test_restore_survives_a_signal_storm),
        cmocka_unit_test(test_a_reply_cut_by_the_wait_is_swallowed),
        cmocka_unit_test(test_a_late_reply_in_two_pieces_is_swallowed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
