/* test_pty_osc52.c — the real program in a pseudo-terminal: 'y' writes one
 * OSC 52 sequence (ESC ] 52 ; c ; base64 BEL) whose payload decodes to
 * exactly what `rooftop --report=markdown --plot` prints, and 'q' then exits
 * 0. The binary is $ROOFTOP (tests/run_all.sh sets it), else ./rooftop.
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

static void test_y_emits_osc52_of_the_report(void **state)
{
    (void)state;
    char *want = report_markdown_plot();
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, &ws);
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("TMUX");
        execl(binary(), "rooftop", (char *)NULL);
        _exit(127);
    }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_y_emits_osc52_of_the_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
