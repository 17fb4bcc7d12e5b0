#include "CSystemBus.h"

int las_bus_open(const char *address, sd_bus **out) {
        if (!address)
                return sd_bus_open_system(out);
        sd_bus *bus = NULL;
        int r = sd_bus_new(&bus);
        if (r < 0)
                return r;
        if ((r = sd_bus_set_address(bus, address)) < 0 || (r = sd_bus_set_bus_client(bus, 1)) < 0 ||
            (r = sd_bus_start(bus)) < 0) {
                sd_bus_unref(bus);
                return r;
        }
        *out = bus;
        return 0;
}
