/* sigexit.c — the signals that end rooftop, and dying of one cleanly. */
#include "sigexit.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

/* Signals sent from outside whose default action ends the process. */
static const int async_signals[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF,
#ifdef SIGIO
    SIGIO,
#elif defined(SIGPOLL)
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGLOST
    SIGLOST,
#endif
#ifdef SIGEMT
    SIGEMT,
#endif
};

/* Signals that the program's own fault or a resource limit raises. */
static const int at_once_signals[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ,
};

size_t sigexit_signals(enum sigexit_kind kind, int *sigs, size_t cap)
{
    size_t n = 0;
    if (kind == SIGEXIT_AT_ONCE) {
        for (size_t i = 0; i < sizeof at_once_signals / sizeof at_once_signals[0]; i++, n++)
            if (n < cap)
                sigs[n] = at_once_signals[i];
        return n;
    }
    if (kind != SIGEXIT_ASYNC)
        return 0;
    for (size_t i = 0; i < sizeof async_signals / sizeof async_signals[0]; i++, n++)
        if (n < cap)
            sigs[n] = async_signals[i];
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    /* The real-time signals the C library leaves to programs all end the
     * process by default. */
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++, n++)
        if (n < cap)
            sigs[n] = s;
#endif
    return n;
}

_Noreturn void sigexit_die(int sig)
{
    fileio_temp_cleanup_signal_safe();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* Makes sig run sigexit_die() if its action is the default one; returns 1
 * when it did. */
static size_t take_if_default(int sig)
{
    struct sigaction now;
    if (sigaction(sig, NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sigexit_die;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL) == 0;
}

size_t sigexit_install(void)
{
    int sigs[SIGEXIT_MAX];
    size_t taken = 0;
    for (int kind = SIGEXIT_ASYNC; kind <= SIGEXIT_AT_ONCE; kind++) {
        size_t n = sigexit_signals((enum sigexit_kind)kind, sigs, SIGEXIT_MAX);
        for (size_t i = 0; i < n && i < SIGEXIT_MAX; i++)
            taken += take_if_default(sigs[i]);
    }
    return taken;
}
