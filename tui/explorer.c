/* explorer.c — the thin ncurses layer: start the terminal, translate keys and
 * mouse events for the ui, copy rendered grids to the screen, and always give
 * the terminal back (q, Ctrl-C, SIGTERM, SIGHUP, any other signal that ends
 * the program, a crash, Ctrl-Z / fg), and take it again after kill -STOP / fg.
 *
 * Everything the explorer shows is rendered by ui.c into a struct grid; this
 * file only knows how to put a grid on a terminal. It is the one place that
 * turns theme roles into curses attributes and colour pairs, with the fallback
 * 256 -> 8 colours -> monochrome attributes.
 */
#include "explorer.h"
#include "export.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "scenariofile.h"
#include "sigexit.h"
#include "termbg.h"
#include "theme.h"
#include "themefile.h"
#include "ui.h"
#include "userfiles.h"

/* ---- the only process-wide state: signal flags and terminal restoration ---- */

/* The signal sent from outside that asked us to leave (SIGINT, SIGTERM,
 * SIGHUP, SIGUSR1 ...: SIGEXIT_ASYNC), or 0. */
static volatile sig_atomic_t exit_signal;
/* Ctrl-Z asked us to stop (SIGTSTP); a stopped process was continued (SIGCONT). */
static volatile sig_atomic_t suspend_requested, continued;
/* Write end of the self-pipe that wakes the event loop from poll(). */
static int wake_fd = -1;
/* True while curses owns the terminal. */
static volatile sig_atomic_t curses_active;
/* Terminal modes before curses started, restored on a crash. */
static struct termios saved_termios;
static volatile sig_atomic_t have_saved_termios;
/* Bytes that put the terminal back (leave the alternate screen, cursor on,
 * attributes off, keypad and mouse reporting off), prepared before curses
 * starts so that a fatal-signal handler can write() them. */
static char restore_bytes[512];
static volatile sig_atomic_t restore_len;

static void restore_terminal_raw(void);

/* Signal handler for the signals sent from outside that end the explorer:
 * records the signal and wakes the event loop, which leaves in order (a save
 * under way finishes). A second one while the first is still unanswered
 * means the loop is stuck: the terminal is put back and the process dies of
 * it at once. Only async-signal-safe calls. */
static void on_exit_signal(int sig)
{
    int saved_errno = errno;
    if (exit_signal) {
        restore_terminal_raw();
        sigexit_die(sig);
    }
    exit_signal = sig;
    if (wake_fd >= 0) {
        char b = 0;
        ssize_t ignored = write(wake_fd, &b, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

/* Handler for SIGTSTP and SIGCONT: records which, wakes the event loop. The
 * loop gives the terminal back before it really stops (see suspend()). */
static void on_job_signal(int sig)
{
    int saved_errno = errno;
    if (sig == SIGTSTP)
        suspend_requested = 1;
    else
        continued = 1;
    if (wake_fd >= 0) {
        char b = 0;
        ssize_t ignored = write(wake_fd, &b, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

/* Blocks every signal that could interrupt giving the terminal back (the
 * ones that end the explorer, job control, a resize), saving the mask in
 * old: with them held, no write of the restore returns EINTR half done, and
 * they are delivered once the terminal is back. Async-signal-safe. */
static void hold_signals(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigdelset(&all, fatal[i]); /* a crash is never held */
    sigprocmask(SIG_BLOCK, &all, old);
}

/* Writes all n bytes of p to the terminal, again after an interruption or
 * a partial write; gives up only on a real error (the terminal is gone).
 * Async-signal-safe. */
static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* Puts the terminal back using only async-signal-safe calls, with the
 * other signals held so that none cuts it short. */
static void restore_terminal_raw(void)
{
    if (!curses_active)
        return;
    sigset_t old;
    hold_signals(&old);
    if (restore_len > 0)
        write_all(restore_bytes, (size_t)restore_len);
    if (have_saved_termios)
        while (tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios) != 0 && errno == EINTR)
            ;
    curses_active = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Handler for the signals that end the program on the spot (a crash:
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS; a limit:
 * SIGXCPU, SIGXFSZ): restores the terminal, removes a half-written save's
 * temporary file, then dies of the signal with its default action so the
 * exit status says which (and a core is dumped where enabled). */
static void on_fatal_signal(int sig)
{
    restore_terminal_raw();
    sigexit_die(sig);
}

/* atexit hook: whoever calls exit() while curses is up, the terminal is
 * given back properly. */
static void restore_at_exit(void)
{
    if (curses_active) {
        endwin();
        curses_active = 0;
    }
}

/* Appends a terminfo string capability (if the terminal has it) to the
 * crash-restore bytes. */
static void add_restore_cap(const char *capname)
{
    char *s = tigetstr(capname);
    if (s == NULL || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if ((size_t)restore_len + n < sizeof restore_bytes) {
        memcpy(restore_bytes + restore_len, s, n);
        restore_len += (sig_atomic_t)n;
    }
}

/* Installs handler for sig with sigaction (no SA_RESTART: poll() must wake). */
static void install(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(sig, &sa, NULL);
}

/* The actions the explorer replaced (the command line's, or the defaults),
 * given back when it returns. */
static struct {
    int sig;
    struct sigaction old;
} replaced[2 * SIGEXIT_MAX + 2];
static size_t replaced_count;

/* Installs handler for sig as install() does, remembering the action it
 * replaces. Unless always is set, only a signal whose action is the default
 * or the command line's sigexit_die is taken: one the parent ignores (SIGHUP
 * under nohup, SIGTSTP under a shell without job control) stays ignored, and
 * one with someone else's handler (a profiler's SIGPROF) keeps it. */
static void take(int sig, void (*handler)(int), int flags, bool always)
{
    struct sigaction old;
    if (replaced_count >= sizeof replaced / sizeof replaced[0] || sigaction(sig, NULL, &old) != 0)
        return;
    bool ours = !(old.sa_flags & SA_SIGINFO) && (old.sa_handler == SIG_DFL || old.sa_handler == sigexit_die);
    if (!always && !ours)
        return;
    replaced[replaced_count].sig = sig;
    replaced[replaced_count].old = old;
    replaced_count++;
    install(sig, handler, flags);
}

/* Takes every signal the explorer handles: those that end it (both kinds),
 * and Ctrl-Z / fg. */
static void take_signals(void)
{
    int sigs[SIGEXIT_MAX];
    replaced_count = 0;
    size_t n = sigexit_signals(SIGEXIT_ASYNC, sigs, SIGEXIT_MAX);
    for (size_t i = 0; i < n && i < SIGEXIT_MAX; i++)
        take(sigs[i], on_exit_signal, 0, false);
    take(SIGTSTP, on_job_signal, 0, false);
    take(SIGCONT, on_job_signal, 0, true);
    /* A fault kills even when its signal is ignored, so the terminal is
     * restored first always (over a sanitizer's handler too); an ignored
     * limit (SIGXCPU, SIGXFSZ) is the parent's choice. */
    n = sigexit_signals(SIGEXIT_AT_ONCE, sigs, SIGEXIT_MAX);
    for (size_t i = 0; i < n && i < SIGEXIT_MAX; i++)
        take(sigs[i], on_fatal_signal, SA_RESETHAND | SA_NODEFER, sigs[i] != SIGXCPU && sigs[i] != SIGXFSZ);
}

/* Gives every signal the explorer took the action it had before. */
static void reset_signals(void)
{
    while (replaced_count > 0) {
        replaced_count--;
        sigaction(replaced[replaced_count].sig, &replaced[replaced_count].old, NULL);
    }
}

/* ---- capability check, before the terminal is touched ---- */

/* Checks that $TERM names a terminal that can address the cursor. Returns 0,
 * or -1 with the reason in why. Does not write to the terminal. */
static int check_terminal(char *why, size_t whysize)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, whysize, "not a terminal");
        return -1;
    }
    const char *term = getenv("TERM");
    if (term == NULL || term[0] == '\0') {
        snprintf(why, whysize, "TERM is not set");
        return -1;
    }
    int err = 0;
    if (setupterm(term, STDOUT_FILENO, &err) != OK) {
        snprintf(why, whysize, "terminal type '%s' is unknown here (no terminfo entry)", term);
        return -1;
    }
    char *cup = tigetstr("cup");
    int hardcopy = tigetflag("hc");
    bool ok = cup != NULL && cup != (char *)-1 && hardcopy <= 0;
    del_curterm(cur_term);
    if (!ok) {
        snprintf(why, whysize, "terminal '%s' cannot address the cursor", term);
        return -1;
    }
    return 0;
}

/* ---- colours: roles to curses attributes, in one place ---- */

/* Curses attributes and colour pair for each role. */
struct palette {
    attr_t attr[ROLE_COUNT];
    short pair[ROLE_COUNT];
    bool plain_blank[ROLE_COUNT]; /* a blank in this role looks like any blank: default background,
                                     no reverse or underline */
    bool ascii;                   /* the terminal draws 7-bit ASCII only: any other character is '?' a column */
};

/* Converts THEME_* bits into curses attributes. */
static attr_t curses_attr(unsigned bits)
{
    attr_t a = A_NORMAL;
    if (bits & THEME_BOLD)
        a |= A_BOLD;
    if (bits & THEME_REVERSE)
        a |= A_REVERSE;
    if (bits & THEME_UNDERLINE)
        a |= A_UNDERLINE;
    if (bits & THEME_DIM)
        a |= A_DIM;
    return a;
}

/* Chooses 256 colours, 8 colours or monochrome for this terminal and fills
 * the palette from the theme. Never changes the terminal's colour palette. */
static void setup_palette(struct palette *p, const struct theme *t, bool no_color)
{
    bool color = !no_color && has_colors() && start_color() == OK && COLOR_PAIRS > ROLE_COUNT;
    bool defaults = color && use_default_colors() == OK;
    bool c256 = color && COLORS >= 256;
    for (int r = 0; r < ROLE_COUNT; r++) {
        const struct theme_style *st = &t->style[r];
        unsigned shows = THEME_REVERSE | THEME_UNDERLINE; /* what a blank shows */
        if (!color) {
            p->attr[r] = curses_attr(st->mono);
            p->pair[r] = 0;
            p->plain_blank[r] = !(st->mono & shows);
            continue;
        }
        short fg = c256 ? st->fg256 : st->fg8, bg = c256 ? st->bg256 : st->bg8;
        p->plain_blank[r] = defaults && bg < 0 && !(st->attr & shows);
        if (!defaults) {
            if (fg < 0)
                fg = COLOR_WHITE;
            if (bg < 0)
                bg = COLOR_BLACK;
        }
        p->pair[r] = (short)(r + 1);
        init_pair(p->pair[r], fg, bg);
        p->attr[r] = curses_attr(st->attr);
    }
}

/* ---- drawing ---- */

/* Longest gap of blanks between two runs of one role that is drawn in that
 * role, so that the terminal is not told to switch attributes off and on
 * again for it (about 30 bytes each time on xterm). */
#define PAINT_GAP_MAX 16

/* The role blank cell (x, y) of g is drawn in: its own, or, when it lies in
 * a short gap between two cells of the same role whose blanks look like any
 * blank, that role (which then looks the same on screen). */
static int blank_role(const struct grid *g, const struct palette *p, int x, int y, int left)
{
    const struct cell *c = grid_cell(g, x, y);
    int role = c->role < ROLE_COUNT ? c->role : ROLE_TEXT;
    if (left < 0 || left == role || !p->plain_blank[left] || !p->plain_blank[role])
        return role;
    for (int k = x + 1; k < g->cols && k < COLS && k <= x + PAINT_GAP_MAX; k++) {
        const struct cell *n = grid_cell(g, k, y);
        if (n->ch != ' ')
            return n->role == left ? left : role;
    }
    return role;
}

/* Copies grid g to the screen: one erase(), every non-blank cell, one
 * refresh(). ncurses sends only the cells that changed since the last frame;
 * repaint (Ctrl-L) makes it resend everything. */
static void paint(const struct grid *g, const struct palette *p, bool repaint)
{
    erase();
    for (int y = 0; y < g->rows && y < LINES; y++) {
        int left = -1; /* the role of the last non-blank cell of the row */
        for (int x = 0; x < g->cols && x < COLS; x++) {
            const struct cell *c = grid_cell(g, x, y);
            if (c->ch == GRID_WIDE_TAIL)
                continue; /* the wide character to its left covers it */
            if (char_width(c->ch) == 2 && x + 1 >= COLS)
                continue; /* half of it would be cut off by a narrower screen */
            int role = c->role < ROLE_COUNT ? c->role : ROLE_TEXT;
            if (c->ch == ' ')
                role = blank_role(g, p, x, y, left);
            else
                left = role;
            if (c->ch == ' ' && role == ROLE_TEXT)
                continue;
            if (c->ch < 0x80 || p->ascii) { /* the common case: no wide-character conversion */
                chtype ch = c->ch < 0x80 ? (chtype)c->ch : (chtype)'?';
                mvaddch(y, x, ch | p->attr[role] | COLOR_PAIR(p->pair[role]));
                if (c->ch >= 0x80 && char_width(c->ch) == 2) /* both columns of a wide one */
                    mvaddch(y, x + 1, ch | p->attr[role] | COLOR_PAIR(p->pair[role]));
                continue;
            }
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, p->attr[role], p->pair[role], NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    if (repaint)
        clearok(curscr, TRUE);
    refresh();
}

/* ---- input ---- */

/* Translates a curses key (from wget_wch) to a ui key; -1 for none. */
static int translate_key(int status, wint_t wch)
{
    if (status == KEY_CODE_YES) {
        switch (wch) {
        case KEY_UP: return UI_KEY_UP;
        case KEY_DOWN: return UI_KEY_DOWN;
        case KEY_LEFT: return UI_KEY_LEFT;
        case KEY_RIGHT: return UI_KEY_RIGHT;
        case KEY_SLEFT: return UI_KEY_SLEFT;
        case KEY_SRIGHT: return UI_KEY_SRIGHT;
        case KEY_PPAGE: return UI_KEY_PGUP;
        case KEY_NPAGE: return UI_KEY_PGDN;
        case KEY_HOME: return UI_KEY_HOME;
        case KEY_END: return UI_KEY_END;
        case KEY_ENTER: return UI_KEY_ENTER;
        case KEY_BACKSPACE: return UI_KEY_BACKSPACE;
        case KEY_DC: return UI_KEY_BACKSPACE;
        case KEY_BTAB: return UI_KEY_BTAB;
        default: return -1;
        }
    }
    switch (wch) {
    case '\r':
    case '\n': return UI_KEY_ENTER;
    case 27: return UI_KEY_ESC;
    case 127:
    case 8: return UI_KEY_BACKSPACE;
    case '\t': return UI_KEY_TAB;
    case 12: return UI_KEY_REPAINT;
    default: return (int)wch;
    }
}

/* The monotonic clock in milliseconds. */
static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000LL + t.tv_nsec / 1000000L;
}

/* After an Esc, tells a lone Esc (return false: the user pressed Esc) from
 * the start of an escape sequence curses did not recognise (an unmapped
 * function key, Alt+key, a mouse report in a protocol terminfo does not
 * name): such a sequence is read to its end and dropped (return true), so
 * that it never quits the explorer. The bytes of a sequence arrive together,
 * within ESCDELAY. */
static bool swallow_escape_sequence(struct reply_tail *tail)
{
    wint_t wch;
    int st = wget_wch(stdscr, &wch);
    if (st == ERR)
        return false;
    if (st == OK && wch == ']') {
        /* OSC (a late answer to the background query): to BEL or ST; what
         * a pause cuts off is waited for (reply_tail), never read as keys. */
        bool esc = false;
        for (int i = 0; i < 256; i++) {
            if ((st = wget_wch(stdscr, &wch)) == ERR) {
                reply_tail_begin(tail, esc ? REPLY_TAIL_OSC_ESC : REPLY_TAIL_OSC, now_ms());
                break;
            }
            if (st == OK && (wch == '\a' || (esc && wch == '\\')))
                break;
            esc = st == OK && wch == 27;
        }
        return true;
    }
    if (st == OK && (wch == '[' || wch == 'O')) {
        /* CSI / SS3: parameters, then one final byte in 0x40-0x7E. */
        for (int i = 0; i < 64; i++) {
            if ((st = wget_wch(stdscr, &wch)) == ERR) {
                reply_tail_begin(tail, REPLY_TAIL_CSI, now_ms()); /* the rest of a reply ("?62;c") */
                break;
            }
            if (st == OK && wch >= 0x40 && wch <= 0x7E && !(i == 0 && wch == '['))
                break;
        }
    }
    return true;
}

/* Handles one mouse report; returns UI_* bits. */
static unsigned handle_mouse(struct ui *u)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return 0;
    if (ev.bstate & BUTTON1_PRESSED)
        return ui_mouse(u, UI_MOUSE_PRESS, ev.x, ev.y);
    if (ev.bstate & BUTTON1_CLICKED)
        return ui_mouse(u, UI_MOUSE_PRESS, ev.x, ev.y) | ui_mouse(u, UI_MOUSE_RELEASE, ev.x, ev.y);
    if (ev.bstate & BUTTON1_RELEASED)
        return ui_mouse(u, UI_MOUSE_RELEASE, ev.x, ev.y);
    if (ev.bstate & BUTTON4_PRESSED)
        return ui_mouse(u, UI_MOUSE_WHEEL_UP, ev.x, ev.y);
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED)
        return ui_mouse(u, UI_MOUSE_WHEEL_DOWN, ev.x, ev.y);
#endif
    if (ev.bstate & REPORT_MOUSE_POSITION)
        return ui_mouse(u, UI_MOUSE_DRAG, ev.x, ev.y);
    return 0;
}

/* Turns xterm's button-motion mouse reports (mode 1002) on or off; ncurses
 * only manages the click reports its terminfo names. */
static void drag_reporting(bool on)
{
    fflush(stdout);
    write_all(on ? "\033[?1002h" : "\033[?1002l", 8);
}

/* Ctrl-Z: gives the terminal back (main screen, modes, mouse off), stops for
 * real with the default SIGTSTP action, and on `fg` takes the terminal again
 * and repaints everything (the shell has drawn over it). */
static void suspend(bool drag_reports)
{
    sigset_t held;
    hold_signals(&held);
    endwin();
    if (drag_reports)
        drag_reporting(false);
    curses_active = 0;
    sigprocmask(SIG_SETMASK, &held, NULL);
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP); /* stops here until SIGCONT */
    install(SIGTSTP, on_job_signal, 0);
    curses_active = 1;
    clearok(curscr, TRUE);
    refresh();
    if (drag_reports)
        drag_reporting(true);
}

/* Continued after a stop the explorer never saw coming (SIGSTOP cannot be
 * caught): a job-control shell has meanwhile put its own modes back (canonical
 * input, echo) and drawn on the screen, and `fg` only continues us. Leaving
 * curses mode and entering it again re-applies every mode of the program:
 * its termios (no echo, no line buffering), keypad, mouse reporting, the
 * alternate screen and the hidden cursor; then everything is repainted. */
static void retake_terminal(bool drag_reports)
{
    endwin();
    if (drag_reports)
        drag_reporting(false);
    clearok(curscr, TRUE);
    refresh();
    if (drag_reports)
        drag_reporting(true);
}

/* ---- the terminal's background ---- */

/* Asks the terminal for its background colour (OSC 11), then for its
 * device attributes (DA1), which every terminal answers: the wait ends with
 * that answer, or after 100 ms. Echo is off meanwhile, so no answer reaches
 * the screen; whatever arrives later is read by curses as an escape
 * sequence and dropped (see swallow_escape_sequence), and an answer the
 * wait cut in two leaves *tail waiting for its rest (reply_tail), so that
 * no byte of it is read as a key. Only on a terminal; EXPLORER_BG_AUTO when
 * there is no answer. */
static enum explorer_background ask_background(struct reply_tail *tail)
{
    struct termios saved, quiet;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || tcgetattr(STDIN_FILENO, &saved) != 0)
        return EXPLORER_BG_AUTO;
    quiet = saved;
    quiet.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    quiet.c_cc[VMIN] = 0;
    quiet.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &quiet) != 0)
        return EXPLORER_BG_AUTO;
    static const char ask[] = "\033]11;?\033\\\033[c";
    char reply[512];
    size_t n = 0;
    if (write(STDOUT_FILENO, ask, sizeof ask - 1) == (ssize_t)(sizeof ask - 1)) {
        struct timespec t0, now;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (;;) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long left_ms = 100 - ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
            struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
            if (left_ms <= 0 || poll(&pfd, 1, (int)left_ms) <= 0)
                break;
            ssize_t got = read(STDIN_FILENO, reply + n, sizeof reply - 1 - n);
            if (got <= 0)
                break;
            n += (size_t)got;
            if (reply_has_device_attributes(reply, n) || n + 1 >= sizeof reply)
                break;
        }
    }
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    /* Cut off by the wait: the rest of the answer is dropped when it comes (reply_tail). */
    if (!reply_has_device_attributes(reply, n))
        reply_tail_after(tail, reply, n, now_ms());
    return background_from_osc11(reply, n);
}

/* The theme to start with: the one named (--theme), else one drawn for the
 * background --background names, COLORFGBG says or the terminal answers.
 * Says in note (notesize bytes) when a light background chose the theme. */
static size_t starting_theme(const struct explorer_options *opts, bool no_color, char *note, size_t notesize,
                             struct reply_tail *tail)
{
    const struct theme_set *themes = opts ? opts->themes : NULL;
    size_t at = themes && opts->theme_index >= 0 && (size_t)opts->theme_index < themes->count
                    ? (size_t)opts->theme_index
                    : 0;
    if (!themes || no_color)
        return at;
    if (opts->theme_named) {
        /* The user's choice stands, but a theme drawn for the other
         * background is said to be (e.g. projector, black axes, on a dark
         * terminal); the terminal is not asked, only what is known. */
        enum explorer_background known = opts->background != EXPLORER_BG_AUTO
                                             ? opts->background
                                             : background_from_colorfgbg(getenv("COLORFGBG"));
        bool theme_light = themes->items[at].background == THEME_BG_LIGHT;
        if (known != EXPLORER_BG_AUTO && theme_light != (known == EXPLORER_BG_LIGHT))
            snprintf(note, notesize, "theme %s is drawn for a %s background, this terminal's is %s (from %s); t "
                     "cycles themes",
                     themes->names[at], theme_light ? "light" : "dark", theme_light ? "dark" : "light",
                     opts->background != EXPLORER_BG_AUTO ? "--background" : "COLORFGBG");
        return at;
    }
    enum explorer_background bg = opts->background;
    const char *how = "--background";
    if (bg == EXPLORER_BG_AUTO) {
        bg = background_from_colorfgbg(getenv("COLORFGBG"));
        how = "COLORFGBG";
    }
    if (bg == EXPLORER_BG_AUTO) {
        bg = ask_background(tail);
        how = "the terminal";
    }
    size_t chosen = (size_t)theme_for_background(themes, bg, (int)at);
    if (chosen != at)
        snprintf(note, notesize, "light background (from %s): theme %s; t cycles themes", how,
                 themes->names[chosen]);
    return chosen;
}

/* ---- the terminal layer's own keys: themes and saving ---- */

/* 't': switches to the next theme of the set and says which. */
static void next_theme(struct ui *u, struct palette *pal, const struct theme_set *themes, size_t *at,
                       bool no_color)
{
    char msg[160];
    if (themes == NULL || themes->count < 2) {
        ui_set_message(u, false, "only the built-in theme is loaded (see rooftop --list-themes)");
        return;
    }
    if (no_color) {
        ui_set_message(u, false, "monochrome (NO_COLOR or --no-color): themes do not apply");
        return;
    }
    *at = (*at + 1) % themes->count;
    setup_palette(pal, &themes->items[*at], false);
    snprintf(msg, sizeof msg, "theme %s (%zu of %zu); t for the next", themes->names[*at], *at + 1,
             themes->count);
    ui_set_message(u, false, msg);
}

/* 's', confirmed: writes the current scenario, atomically, to the path
 * the user typed, and says what happened. */
static void save_scenario(struct ui *u, const char *path)
{
    char msg[UI_MESSAGE_MAX], err[600], expanded[UI_EDIT_MAX + 256];
    if (userfile_expand_home(path, expanded, sizeof expanded) != 0) {
        ui_set_message(u, true, "not saved: the path with $HOME expanded is too long");
        return;
    }
    path = expanded;
    char *json = scenario_to_json(&u->scenario);
    if (json == NULL) {
        ui_set_message(u, true, "out of memory writing the scenario");
        return;
    }
    if (write_file_atomic(path, json, strlen(json), err, sizeof err) != 0) {
        ui_set_message(u, true, err);
    } else {
        char shown[200];
        snprintf(msg, sizeof msg, "saved the scenario to %s", path_shown(shown, sizeof shown, path));
        ui_set_message(u, false, msg);
    }
    free(json);
}

/* Writes the markdown report with its plot to path ('e', overwriting
 * confirmed), ~/ expanded as save_scenario does; says how it went. */
static void export_to_file(struct ui *u, const char *path)
{
    char msg[UI_MESSAGE_MAX], err[600], expanded[UI_EDIT_MAX + 256];
    if (userfile_expand_home(path, expanded, sizeof expanded) != 0) {
        ui_set_message(u, true, "not exported: the path with $HOME expanded is too long");
        return;
    }
    path = expanded;
    char *md = export_review(&u->scenario, &u->analysis, u->has_baseline ? &u->baseline : NULL,
                             u->has_baseline ? &u->baseline_analysis : NULL);
    if (!md) {
        ui_set_message(u, true, "out of memory writing the report");
        return;
    }
    if (write_file_atomic(path, md, strlen(md), err, sizeof err) != 0) {
        ui_set_message(u, true, err);
    } else {
        char shown[200];
        snprintf(msg, sizeof msg, "exported the report to %s", path_shown(shown, sizeof shown, path));
        ui_set_message(u, false, msg);
    }
    free(md);
}

/* Puts the markdown report with its plot on the clipboard of the terminal
 * the user sits at ('y'): OSC 52, which crosses SSH and, with tmux's
 * set-clipboard on, tmux. Text over EXPORT_OSC52_MAX bytes of base64 is not
 * sent (terminals drop or cut it); the status line says so. */
static void copy_to_clipboard(struct ui *u)
{
    char msg[UI_MESSAGE_MAX];
    char *md = export_review(&u->scenario, &u->analysis, u->has_baseline ? &u->baseline : NULL,
                             u->has_baseline ? &u->baseline_analysis : NULL);
    bool too_long = false;
    char *seq = md ? export_osc52(md, EXPORT_OSC52_MAX, &too_long) : NULL;
    if (too_long) {
        snprintf(msg, sizeof msg, "not copied: the report is %zu KB, over the %d KB of base64 a terminal takes; "
                 "e exports it to a file", strlen(md) / 1000, EXPORT_OSC52_MAX / 1000);
        ui_set_message(u, true, msg);
    } else if (!seq) {
        ui_set_message(u, true, "out of memory copying the report");
    } else {
        fflush(stdout); /* after what curses has queued, never inside it */
        size_t n = strlen(seq), done = 0;
        while (done < n) {
            ssize_t w = write(STDOUT_FILENO, seq + done, n - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        export_osc52_words(msg, sizeof msg, strlen(md), getenv("TMUX"), getenv("STY"), getenv("TERM"), COLS);
        ui_set_message(u, done != n, done == n ? msg : "not copied: writing to the terminal failed");
    }
    free(seq);
    free(md);
}

/* ---- the entry point ---- */

int explorer_run(const struct scenario *initial, const struct explorer_options *opts, char *why, size_t whysize)
{
    /* main() sets the locale; doing it again is harmless and keeps a direct
     * caller (the benchmark, a test) honest. Numbers always use a dot. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    bool ascii = (opts && opts->force_ascii) || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
    char note[UI_MESSAGE_MAX] = "";
    if (!ascii && term_lacks_braille(getenv("TERM"))) { /* the Linux console's font has no braille */
        ascii = true;
        snprintf(note, sizeof note, "TERM=%.40s cannot show braille: drawing in ASCII, as --ascii does",
                 getenv("TERM"));
    }
    const char *nc = getenv("NO_COLOR");
    bool no_color = (opts && opts->no_color) || (nc != NULL && nc[0] != '\0');

    if (check_terminal(why, whysize) != 0)
        return -1;
    struct ui *u = malloc(sizeof *u);
    if (!u) {
        snprintf(why, whysize, "out of memory starting the explorer");
        return -1;
    }
    if (ui_init(u, initial, ascii, 80, 24, why, whysize) != 0) {
        ui_free(u);
        free(u);
        return -1;
    }
    if (opts) {
        ui_set_chips(u, opts->chips);
        ui_set_points(u, opts->points, opts->point_count, opts->points_context);
        if (opts->has_baseline) {
            char err[256];
            if (ui_set_baseline(u, &opts->baseline, err, sizeof err) == 0)
                ui_set_message(u, false, "baseline pinned from --baseline (b clears)");
            else
                ui_set_message(u, true, err);
        }
        if (opts->start_warning[0])
            ui_set_message(u, true, opts->start_warning);
        if (opts->tour)
            ui_set_tour(u, opts->tour);
        if (opts->start_tour)
            ui_open_tour(u);
    }
    if (opts && opts->present)
        u->mode = UI_MODE_PRESENT;
    if (opts) {
        u->pareto_one_precision = opts->search_one_precision;
        u->pareto_max_chips_given = opts->search_max_chips_given;
    }
    if (opts && opts->save_path[0])
        snprintf(u->save_path, sizeof u->save_path, "%s", opts->save_path);
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        ui_free(u);
        free(u);
        snprintf(why, whysize, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < 2; i++)
        fcntl(pipefd[i], F_SETFL, fcntl(pipefd[i], F_GETFL) | O_NONBLOCK);
    wake_fd = pipefd[1];

    /* Signals first, so that ncurses leaves SIGINT, SIGTERM and SIGTSTP to
     * us; it keeps its own SIGWINCH handling, which gives KEY_RESIZE. */
    exit_signal = 0;
    suspend_requested = continued = 0;
    take_signals();
    static bool atexit_done;
    if (!atexit_done)
        atexit_done = atexit(restore_at_exit) == 0;

    have_saved_termios = tcgetattr(STDIN_FILENO, &saved_termios) == 0;
    char bg_note[UI_MESSAGE_MAX] = "";
    struct reply_tail tail = {0}; /* a terminal answer still arriving, dropped as it comes */
    size_t theme_at = starting_theme(opts, no_color, bg_note, sizeof bg_note, &tail);
    if (bg_note[0]) {
        size_t used = strlen(note);
        if (snprintf(note + used, sizeof note - used, "%s%s", used ? "; " : "", bg_note) < 0)
            note[used] = '\0'; /* a note too long for the line is cut, never garbled */
    }
    if (note[0])
        ui_set_message(u, false, note);
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) {
        snprintf(why, whysize, "curses cannot start on TERM=%s", getenv("TERM"));
        reset_signals();
        close(pipefd[0]);
        close(pipefd[1]);
        wake_fd = -1;
        ui_free(u);
        free(u);
        return -1;
    }
    set_term(screen);
    restore_len = 0;
    add_restore_cap("rmcup");
    add_restore_cap("sgr0");
    add_restore_cap("cnorm");
    add_restore_cap("rmkx");
    curses_active = 1;

    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    leaveok(stdscr, TRUE);
    /* No typeahead checks during refresh: the loop has already read every
     * pending key, so the poll() of stdin ncurses would make while drawing
     * only costs time. */
    typeahead(-1);
    struct palette pal;
    const struct theme_set *themes = opts ? opts->themes : NULL;
    setup_palette(&pal, themes && themes->count ? &themes->items[theme_at] : theme_default(), no_color);
    pal.ascii = ascii;
    mmask_t want = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | REPORT_MOUSE_POSITION;
#ifdef BUTTON5_PRESSED
    want |= BUTTON5_PRESSED;
#endif
    bool drag_reports = false;
    if (mousemask(want, NULL) != 0) {
        mouseinterval(0);
        /* terminfo's XM for xterm asks for clicks only (mode 1000); for drags
         * on a track, xterm-style terminals also need button-motion reports
         * (mode 1002), which ncurses then decodes as REPORT_MOUSE_POSITION. */
        char *kmous = tigetstr("kmous");
        drag_reports = kmous != NULL && kmous != (char *)-1 && strncmp(kmous, "\033[", 2) == 0;
        const char *off = "\033[?1000l\033[?1002l\033[?1003l\033[?1006l";
        size_t n = strlen(off);
        if ((size_t)restore_len + n < sizeof restore_bytes) {
            memcpy(restore_bytes + restore_len, off, n);
            restore_len += (sig_atomic_t)n;
        }
    }

    struct grid g;
    grid_init(&g, 0, 0);
    ui_resize(u, COLS, LINES);
    ui_render(u, &g);
    paint(&g, &pal, false);
    if (drag_reports)
        drag_reporting(true);

    int status = 0;
    int idle_reads = 0;
    for (;;) {
        if (exit_signal)
            break;
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {pipefd[0], POLLIN, 0}};
        int r = poll(fds, 2, -1);
        int poll_errno = errno; /* before anything below can change errno */
        if (exit_signal)
            break;
        if (suspend_requested) {
            suspend_requested = 0;
            suspend(drag_reports);
            continued = 0; /* the SIGCONT of our own `fg`: repainted just below */
            ui_resize(u, COLS, LINES);
            if (ui_render(u, &g) == 0)
                paint(&g, &pal, true);
        }
        if (continued) { /* stopped and continued behind our back (kill -STOP, then fg) */
            continued = 0;
            retake_terminal(drag_reports);
            ui_resize(u, COLS, LINES);
            if (ui_render(u, &g) == 0)
                paint(&g, &pal, true);
        }
        if (r < 0 && poll_errno != EINTR) {
            status = 1;
            break;
        }
        if (r > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
            status = 1; /* the terminal went away */
            break;
        }
        unsigned flags = 0;
        int keys = 0;
        wint_t wch;
        int st;
        while (!(flags & UI_QUIT) && (st = wget_wch(stdscr, &wch)) != ERR) {
            keys++;
            if (st == KEY_CODE_YES && wch == KEY_RESIZE) {
                ui_resize(u, COLS, LINES);
                flags |= UI_REDRAW;
            } else if (st == KEY_CODE_YES && wch == KEY_MOUSE) {
                flags |= handle_mouse(u);
            } else {
                if (st == OK && reply_tail_take(&tail, (unsigned)wch, now_ms()))
                    continue; /* the rest of a terminal's answer, not a key */
                int key = translate_key(st, wch);
                if (key == UI_KEY_ESC && swallow_escape_sequence(&tail))
                    continue;
                if (key >= 0)
                    flags |= ui_key(u, key);
            }
        }
        /* Readable but nothing to read, again and again: end of input. */
        idle_reads = (r > 0 && (fds[0].revents & POLLIN) && keys == 0) ? idle_reads + 1 : 0;
        if (idle_reads > 100) {
            status = 1;
            break;
        }
        if (flags & UI_QUIT)
            break;
        if (flags & UI_NEXT_THEME)
            next_theme(u, &pal, themes, &theme_at, no_color);
        if (flags & UI_SAVE)
            save_scenario(u, u->save_path);
        if (flags & UI_EXPORT)
            export_to_file(u, u->export_path);
        if (flags & UI_COPY)
            copy_to_clipboard(u);
        if (flags & UI_REDRAW) {
            if (ui_render(u, &g) == 0)
                paint(&g, &pal, (flags & UI_REPAINT) != 0);
        }
        if (fds[1].revents & POLLIN) { /* drain the wake-up pipe */
            char buf[64];
            while (read(pipefd[0], buf, sizeof buf) > 0)
                ;
        }
    }

    int sig = exit_signal;
    /* From here the terminal is given back with every signal held: one
     * arriving now (another SIGTERM, a resize, SIGCONT) would interrupt the
     * restore's writes and leave the alternate screen, a hidden cursor and
     * the keypad and mouse modes on. They are delivered after it. */
    sigset_t held;
    hold_signals(&held);
    /* A terminal without an alternate screen (vt100, linux) would keep the
     * explorer's last frame under the shell's prompt: clear it first. */
    char *alt = tigetstr("smcup");
    if (alt == NULL || alt == (char *)-1 || alt[0] == '\0') {
        erase();
        refresh();
    }
    endwin();
    if (drag_reports)
        drag_reporting(false);
    curses_active = 0;
    delscreen(screen);
    grid_free(&g);
    ui_free(u);
    free(u);
    wake_fd = -1;
    close(pipefd[0]);
    close(pipefd[1]);
    reset_signals();
    if (sig != 0) {
        /* Die of the signal that ended us, as a shell expects, now that the
         * terminal is back (sigexit_die lets that one signal through). */
        fflush(stdout);
        sigexit_die(sig);
    }
    sigprocmask(SIG_SETMASK, &held, NULL);
    return status;
}
