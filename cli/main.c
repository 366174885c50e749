/* main.c — rooftop's entry point: locale, then the command line. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>

#include "commands.h"
#include "sigexit.h"

int main(int argc, char **argv)
{
    /* The user's locale for character handling, but a dot for numbers in every
     * locale: parsing and printing must not change with LC_NUMERIC. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* A signal that ends the program mid-save (--write-scenario,
     * --write-chip) removes the temporary file first; the explorer puts its
     * own handlers over these while it runs. */
    sigexit_install();
    int status = cli_main(argc, argv, stdout, stderr);
    /* A failed write (a full disk, a closed pipe) is an error, even when it
     * happened before the final flush. */
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        perror("rooftop: writing output");
        status = 1;
    }
    return status;
}
