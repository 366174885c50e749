/* bench_tui.c — the explorer's speed on a pseudo-terminal (issue 3):
 *
 *   bench_tui [path/to/rooftop] [steps]
 *
 * Opens the explorer at 120 x 40 on a pty (forkpty) — the real program when
 * a path is given, else explorer_run() in the forked child — in a UTF-8
 * locale with TERM=xterm-256color, on the guide's scenario with 16 chips.
 * It measures:
 *   - first frame: from fork to the last byte of the first screen;
 *   - per slider step (chips 16 <-> 32, alternating): the time from writing
 *     the key to the last byte of the screen update, and the bytes written;
 *   - for each knob, the bytes of its largest step (KNOB_STEPS steps right
 *     and left from the starting scenario);
 *   - the child's peak resident set size.
 * "Last byte" means the last byte before the pty stays quiet for QUIET_MS;
 * that quiet wait is not counted. A benchmark, not a test: it prints figures,
 * the targets (median step < 1 ms, < 2 KiB per step, first frame
 * < 20 ms, peak RSS < 8 MB) and whether each was met, and exits 0 unless it
 * could not run (no first frame, or the explorer exited non-zero). With
 * BENCH_QUICK=1 and no step count it takes 20 steps instead of 200 (about a
 * second: what CI runs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../bench/benchutil.h"
#include "explorer.h"
#include "scenario.h"
#include "sliders.h"

#define QUIET_MS 40
#define COLS 120
#define ROWS 40
#define STEPS 200
#define QUICK_STEPS 20
#define KNOB_STEPS 8

/* Reads from fd until it has been quiet for QUIET_MS (or limit_s passed).
 * Returns the bytes read; *last_s gets the time of the last byte (0 if none). */
static long drain(int fd, double *last_s, double limit_s)
{
    char buf[65536];
    long total = 0;
    double start = now_s();
    *last_s = 0.0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int wait_ms = total == 0 ? (int)(limit_s * 1000) : QUIET_MS;
        int r = poll(&p, 1, wait_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            break;
        total += n;
        *last_s = now_s();
        if (now_s() - start > limit_s)
            break;
    }
    return total;
}

int main(int argc, char **argv)
{
    const char *program = argc > 1 && argv[1][0] ? argv[1] : NULL;
    int steps = argc > 2 ? atoi(argv[2]) : bench_quick() ? QUICK_STEPS : STEPS;
    if (steps < 2 || steps > 100000)
        steps = STEPS;

    struct winsize ws = {ROWS, COLS, 0, 0};
    int master;
    double t0 = now_s();
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0) {
        perror("bench_tui: forkpty");
        return 1;
    }
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("NO_COLOR");
        /* A dark background, as a terminal would say: this pty answers no
         * OSC 11 query, which would otherwise wait 100 ms for a reply. */
        setenv("COLORFGBG", "15;0", 1);
        if (program) {
            execl(program, program, "--chips", "16", (char *)NULL);
            perror("bench_tui: exec");
            _exit(127);
        }
        struct scenario s;
        scenario_default(&s);
        s.chips = 16;
        struct explorer_options o = {.force_ascii = false};
        char why[256];
        int status = explorer_run(&s, &o, why, sizeof why);
        if (status < 0)
            fprintf(stderr, "explorer declined: %s\n", why);
        _exit(status < 0 ? 2 : status);
    }

    double last;
    long first_bytes = drain(master, &last, 5.0);
    if (first_bytes <= 0) {
        fprintf(stderr, "bench_tui: no first frame\n");
        kill(pid, SIGTERM);
        return 1;
    }
    double first_ms = (last - t0) * 1e3;

    /* Select the chips slider (fourth), then step it right and left. */
    for (int i = 0; i < 3; i++) {
        if (write(master, "j", 1) != 1)
            return 1;
        drain(master, &last, 2.0);
    }
    double *lat = calloc((size_t)steps, sizeof *lat), *bytes = calloc((size_t)steps, sizeof *bytes);
    if (!lat || !bytes)
        return 1;
    for (int i = 0; i < steps; i++) {
        const char *key = i % 2 == 0 ? "l" : "h";
        double sent = now_s();
        if (write(master, key, 1) != 1)
            return 1;
        long n = drain(master, &last, 2.0);
        lat[i] = n > 0 ? (last - sent) * 1e3 : 1e9;
        bytes[i] = (double)n;
    }
    /* Each knob in turn: select it from the top (g, then j), step it right
     * and left KNOB_STEPS times, and keep the median bytes of its steps. */
    int knob_steps = bench_quick() ? 4 : KNOB_STEPS;
    double knob_bytes[SLIDER_COUNT], kb[2 * KNOB_STEPS];
    for (int k = 0; k < SLIDER_COUNT; k++) {
        if (write(master, "g", 1) != 1)
            return 1;
        drain(master, &last, 2.0);
        for (int j = 0; j < k; j++) {
            if (write(master, "j", 1) != 1)
                return 1;
            drain(master, &last, 2.0);
        }
        for (int i = 0; i < knob_steps; i++) {
            if (write(master, i % 2 == 0 ? "l" : "h", 1) != 1)
                return 1;
            kb[i] = (double)drain(master, &last, 2.0);
        }
        qsort(kb, (size_t)knob_steps, sizeof *kb, compare_doubles);
        knob_bytes[k] = kb[knob_steps - 1]; /* the worst step of the knob */
    }
    if (write(master, "q", 1) != 1)
        return 1;
    drain(master, &last, 2.0);
    int status = 0;
    waitpid(pid, &status, 0);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);

    qsort(lat, (size_t)steps, sizeof *lat, compare_doubles);
    qsort(bytes, (size_t)steps, sizeof *bytes, compare_doubles);
    double med_ms = lat[steps / 2], p90_ms = lat[steps * 9 / 10], med_bytes = bytes[steps / 2];
    double rss_mb = (double)ru.ru_maxrss / 1024.0;

    printf("rooftop explorer on a %dx%d pty (%s, TERM=xterm-256color, C.UTF-8), %d chips steps\n", COLS, ROWS,
           program ? program : "in-process explorer_run", steps);
    printf("  first frame          %8.2f ms  (%ld bytes)     target < 20 ms: %s\n", first_ms, first_bytes,
           target_met(first_ms < 20));
    printf("  keystroke -> screen  %8.3f ms median, %.3f ms p90  target < 1 ms: %s\n", med_ms, p90_ms,
           target_met(med_ms < 1.0));
    printf("  bytes per step       %8.0f median (min %.0f, max %.0f)  target < 2048: %s\n", med_bytes, bytes[0],
           bytes[steps - 1], target_met(med_bytes < 2048));
    printf("  bytes per step, each knob (the largest of %d steps right and left; target < 2048):\n", knob_steps);
    for (int k = 0; k < SLIDER_COUNT; k++)
        printf("    %-10s %6.0f  %s\n", slider_name((enum slider_id)k), knob_bytes[k], target_met(knob_bytes[k] < 2048));
    printf("  peak RSS             %8.2f MB                    target < 8 MB: %s\n", rss_mb,
           target_met(rss_mb < 8));
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("  exit status          %d\n", exit_status);
    free(lat);
    free(bytes);
    /* An explorer that did not quit cleanly is a run that did not happen. */
    return exit_status == 0 ? 0 : 1;
}
