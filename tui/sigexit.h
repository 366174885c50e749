/* sigexit.h — the signals that end rooftop, and what it does before it dies
 * of one: remove the temporary file of a save in progress (core/fileio), then
 * end with the signal's own default action, so that the exit status still
 * says which signal (and a core is dumped where that is the default).
 *
 * The command line installs sigexit_die() for all of them (sigexit_install);
 * the explorer installs its own handlers, which give the terminal back first
 * and then call sigexit_die().
 */
#ifndef ROOFTOP_SIGEXIT_H
#define ROOFTOP_SIGEXIT_H

#include <stddef.h>

/* How a signal that ends the program arrives. */
enum sigexit_kind {
    /* Sent from outside, at any moment (TERM, HUP, INT, QUIT, USR1, USR2,
     * ALRM, VTALRM, PROF, PIPE, IO, PWR, the real-time signals): the
     * explorer may finish the event at hand and leave in order. */
    SIGEXIT_ASYNC,
    /* The program's own doing or a resource limit (SEGV, BUS, FPE, ILL,
     * ABRT, TRAP, SYS, XCPU, XFSZ): handled on the spot, since returning
     * would fault again or go on past the limit. */
    SIGEXIT_AT_ONCE,
};

/* Room for every signal of one kind (Linux has 9 + about 45). */
#define SIGEXIT_MAX 96

/* Writes into sigs (room for cap entries) the catchable signals of the given
 * kind whose default action ends the process, on this system. Returns how
 * many there are; only the first cap are written (cap may be 0). An unknown
 * kind has none (returns 0). */
size_t sigexit_signals(enum sigexit_kind kind, int *sigs, size_t cap);

/* Ends the process with sig's default action, after removing the temporary
 * file of a save in progress (fileio_temp_cleanup_signal_safe). sig: a
 * signal whose default action ends the process (sigexit_signals); it is
 * unblocked first, so this works inside sig's own handler. Async-signal-safe;
 * usable as a signal handler. Does not return: should the signal not end the
 * process, it exits with status 128 + sig. */
_Noreturn void sigexit_die(int sig);

/* For the command-line modes: makes every signal of both kinds whose action
 * is still the default one run sigexit_die(), so that a signal during
 * --write-scenario or --write-chip leaves no temporary file. Signals the
 * parent ignores (nohup, a shell without job control) stay ignored; a
 * handler someone else installed (a sanitizer's) stays. Returns how many
 * signals it took over. */
size_t sigexit_install(void);

#endif
