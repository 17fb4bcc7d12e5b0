// The fprintd row of `make bench`: one full verify cycle through localauthd (evaluatePolicy over its
// socket, Kind=fprintd) next to the same cycle against fprintd directly (Claim, VerifyStart, scan,
// VerifyStatus, VerifyStop, Release). Both scan the virtual device the moment fprintd reports
// finger-needed, so both include the same virtual-device work.
// Usage: fprintd-cycle SOCKET VDEV_SOCKET USER PRINT CYCLES   (DBUS_SYSTEM_BUS_ADDRESS: the private bus)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

static int finger_needed;
static const char *verify_result;
static char verify_buffer[64];

static int on_properties(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)userdata;
        (void)error;
        const char *interface;
        if (sd_bus_message_read(m, "s", &interface) < 0)
                return 0;
        if (sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
                return 0;
        while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
                const char *name;
                sd_bus_message_read(m, "s", &name);
                if (strcmp(name, "finger-needed") == 0) {
                        int value = 0;
                        if (sd_bus_message_enter_container(m, 'v', "b") >= 0) {
                                sd_bus_message_read(m, "b", &value);
                                sd_bus_message_exit_container(m);
                        }
                        if (value)
                                finger_needed = 1;
                } else {
                        sd_bus_message_skip(m, "v");
                }
                sd_bus_message_exit_container(m);
        }
        return 0;
}

static int on_status(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)userdata;
        (void)error;
        const char *result;
        int done;
        if (sd_bus_message_read(m, "sb", &result, &done) >= 0) {
                snprintf(verify_buffer, sizeof verify_buffer, "%s", result);
                verify_result = verify_buffer;
        }
        return 0;
}

static int connect_unix(const char *path) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
        if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
                close(fd);
                return -1;
        }
        return fd;
}

static void scan(const char *vdev, const char *print) {
        int fd = connect_unix(vdev);
        if (fd < 0) {
                perror("vdev");
                exit(1);
        }
        char command[128];
        int n = snprintf(command, sizeof command, "SCAN %s", print);
        if (write(fd, command, (size_t)n) != n)
                perror("write");
        close(fd);
}

static void wait_finger_needed(sd_bus *bus) {
        while (!finger_needed) {
                if (sd_bus_process(bus, NULL) > 0)
                        continue;
                sd_bus_wait(bus, 1000000);
        }
        finger_needed = 0;
}

static double now_ms(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
        double x = *(const double *)a, y = *(const double *)b;
        return x < y ? -1 : x > y;
}

static void report(const char *name, double *samples, int n, double total) {
        qsort(samples, (size_t)n, sizeof *samples, compare);
        printf("%-28s %8.1f cycles/s   p50 %6.2f ms   p99 %6.2f ms\n", name, n / (total / 1000.0), samples[n / 2],
               samples[(n * 99) / 100]);
}

int main(int argc, char **argv) {
        if (argc != 6) {
                fprintf(stderr, "usage: %s SOCKET VDEV USER PRINT CYCLES\n", argv[0]);
                return 2;
        }
        const char *socket_path = argv[1], *vdev = argv[2], *user = argv[3], *print = argv[4];
        int cycles = atoi(argv[5]);
        sd_bus *bus = NULL;
        if (sd_bus_open_system(&bus) < 0) {
                fprintf(stderr, "no bus\n");
                return 1;
        }
        sd_bus_match_signal(bus, NULL, NULL, "/net/reactivated/Fprint/Device/0", "org.freedesktop.DBus.Properties",
                            "PropertiesChanged", on_properties, NULL);
        sd_bus_match_signal(bus, NULL, NULL, "/net/reactivated/Fprint/Device/0", "net.reactivated.Fprint.Device",
                            "VerifyStatus", on_status, NULL);
        double *direct = calloc((size_t)cycles, sizeof(double));
        double *daemon = calloc((size_t)cycles, sizeof(double));
        const char *dev = "/net/reactivated/Fprint/Device/0", *iface = "net.reactivated.Fprint.Device";
        sd_bus_error error = SD_BUS_ERROR_NULL;
        double start = now_ms();
        for (int i = 0; i < cycles; i++) {
                double t0 = now_ms();
                if (sd_bus_call_method(bus, "net.reactivated.Fprint", dev, iface, "Claim", &error, NULL, "s", user) <
                    0) {
                        fprintf(stderr, "Claim: %s\n", error.message);
                        return 1;
                }
                verify_result = NULL;
                sd_bus_call_method(bus, "net.reactivated.Fprint", dev, iface, "VerifyStart", &error, NULL, "s", "any");
                wait_finger_needed(bus);
                scan(vdev, print);
                while (!verify_result) {
                        if (sd_bus_process(bus, NULL) == 0)
                                sd_bus_wait(bus, 1000000);
                }
                if (strcmp(verify_result, "verify-match") != 0) {
                        fprintf(stderr, "direct: %s\n", verify_result);
                        return 1;
                }
                sd_bus_call_method(bus, "net.reactivated.Fprint", dev, iface, "VerifyStop", &error, NULL, "");
                sd_bus_call_method(bus, "net.reactivated.Fprint", dev, iface, "Release", &error, NULL, "");
                direct[i] = now_ms() - t0;
        }
        double direct_total = now_ms() - start;
        int fd = connect_unix(socket_path);
        if (fd < 0) {
                perror("localauthd");
                return 1;
        }
        FILE *in = fdopen(dup(fd), "r");
        char line[8192];
        start = now_ms();
        for (int i = 0; i < cycles; i++) {
                double t0 = now_ms();
                char request[256];
                int n = snprintf(request, sizeof request,
                                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"context.evaluatePolicy\",\"params\":{"
                                 "\"policy\":1,\"localizedReason\":\"bench\"}}\n",
                                 i + 1);
                if (write(fd, request, (size_t)n) != n) {
                        perror("write");
                        return 1;
                }
                wait_finger_needed(bus);
                scan(vdev, print);
                for (;;) {
                        if (!fgets(line, sizeof line, in)) {
                                fprintf(stderr, "localauthd closed\n");
                                return 1;
                        }
                        if (strstr(line, "\"result\""))
                                break;
                        if (strstr(line, "\"error\"") && !strstr(line, "\"method\"")) {
                                fprintf(stderr, "localauthd: %s", line);
                                return 1;
                        }
                }
                daemon[i] = now_ms() - t0;
        }
        double daemon_total = now_ms() - start;
        report("fprintd directly", direct, cycles, direct_total);
        report("localauthd + fprintd", daemon, cycles, daemon_total);
        double a = daemon[cycles / 2], b = direct[cycles / 2];
        printf("localauthd overhead: p50 %.2fx of fprintd directly, cycle time %.2fx\n", a / b,
               daemon_total / direct_total);
        return 0;
}
