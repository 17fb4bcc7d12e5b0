#pragma once

#include <systemd/sd-bus.h>

/* Opens the bus at `address` (a D-Bus address string, as a test's private bus gives), or the
 * system bus when `address` is NULL, as a client of it. Returns 0 or a negative errno. */
int las_bus_open(const char *address, sd_bus **out);
