/* fuzz_validate.c — libFuzzer harness: any bytes as a measurements file, as
 * --validate and --calibrate read one (measured.h: rooftop's points CSV,
 * the shared cases table whose rows carry rooftop's own flags, or a
 * profiler's export). The reader must give observations or one error,
 * never crash, leak or hang; every observation it gives must have a
 * positive, finite measured time, and a point's prediction on the base
 * chip must be a number. It links the whole command line (a cases row is
 * parsed by it), with the user's folders pointed nowhere. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "calibrate.h"
#include "cli.h"
#include "measured.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) { /* no user folder, no home: the harness reads only its input */
        setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-fuzz", 1);
        setenv("HOME", "/nonexistent-rooftop-fuzz", 1);
        once = 1;
    }
    struct scenario base;
    scenario_default(&base);
    struct observation *obs = NULL;
    size_t n = 0;
    struct load_warnings w = {0};
    char err[700];
    if (measured_read("fuzz.csv", (const char *)data, size, &base, cli_scenario_from_flags, &obs, &n, &w, err,
                      sizeof err) != 0) {
        if (obs)
            abort(); /* a failed read leaves nothing behind */
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(obs[i].measured_s > 0.0 && isfinite(obs[i].measured_s)))
            abort(); /* a measurement without a time */
        double t;
        if (obs[i].point && observation_predict(&obs[i], false, &t, err, sizeof err) == 0 && !isfinite(t))
            abort();
    }
    free(obs);
    return 0;
}
