#include "CFprintdBus.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include "CSystemBus.h"

struct lfb_bus {
        sd_bus *bus;
        lfb_reply_fn on_reply;
        lfb_signal_fn on_signal;
        void *context;
};

typedef struct {
        struct lfb_bus *owner;
        uint64_t token;
        int reply_kind;
} pending_call;

static int on_status(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        struct lfb_bus *b = userdata;
        const char *result = NULL;
        int done = 0;
        if (sd_bus_message_read(m, "sb", &result, &done) >= 0 && result)
                b->on_signal(b->context, "VerifyStatus", result, done);
        return 0;
}

static int on_owner(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        struct lfb_bus *b = userdata;
        const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
        if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) >= 0 && new_owner)
                b->on_signal(b->context, "NameOwnerChanged", new_owner, -1);
        return 0;
}

int lfb_open(const char *address, lfb_reply_fn on_reply, lfb_signal_fn on_signal, void *context, lfb_bus **out) {
        struct lfb_bus *b = calloc(1, sizeof *b);
        if (!b)
                return -ENOMEM;
        b->on_reply = on_reply;
        b->on_signal = on_signal;
        b->context = context;
        int r = las_bus_open(address, &b->bus);
        if (r < 0) {
                free(b);
                return r;
        }
        r = sd_bus_match_signal(b->bus, NULL, "net.reactivated.Fprint", NULL, "net.reactivated.Fprint.Device",
                                "VerifyStatus", on_status, b);
        if (r >= 0)
                r = sd_bus_add_match(b->bus, NULL,
                                     "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                                     "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                                     "arg0='net.reactivated.Fprint'",
                                     on_owner, b);
        if (r < 0) {
                sd_bus_unref(b->bus);
                free(b);
                return r;
        }
        *out = b;
        return 0;
}

int lfb_fd(lfb_bus *b) {
        return sd_bus_get_fd(b->bus);
}
int lfb_events(lfb_bus *b) {
        return sd_bus_get_events(b->bus);
}

int lfb_process(lfb_bus *b) {
        int r;
        while ((r = sd_bus_process(b->bus, NULL)) > 0) {
        }
        return r;
}

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        pending_call *call = userdata;
        struct lfb_bus *b = call->owner;
        const sd_bus_error *e = sd_bus_message_get_error(m);
        if (e) {
                b->on_reply(b->context, call->token, e->name, e->message, NULL, NULL, 0);
        } else if (call->reply_kind == 1) {
                const char *path = NULL;
                sd_bus_message_read(m, "o", &path);
                b->on_reply(b->context, call->token, NULL, NULL, path, NULL, 0);
        } else if (call->reply_kind == 2) {
                char **strv = NULL;
                sd_bus_message_read_strv(m, &strv);
                int count = 0;
                while (strv && strv[count])
                        count++;
                b->on_reply(b->context, call->token, NULL, NULL, NULL, (const char *const *)strv, count);
                if (strv) {
                        for (int i = 0; i < count; i++)
                                free(strv[i]);
                        free(strv);
                }
        } else {
                b->on_reply(b->context, call->token, NULL, NULL, NULL, NULL, 0);
        }
        free(call);
        return 0;
}

int lfb_call(lfb_bus *b, uint64_t token, const char *path, const char *interface, const char *member,
             const char *argument, int reply_kind) {
        sd_bus_message *m = NULL;
        int r = sd_bus_message_new_method_call(b->bus, &m, "net.reactivated.Fprint", path, interface, member);
        if (r < 0)
                return r;
        if (argument)
                r = sd_bus_message_append(m, "s", argument);
        if (r < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        pending_call *call = malloc(sizeof *call);
        if (!call) {
                sd_bus_message_unref(m);
                return -ENOMEM;
        }
        call->owner = b;
        call->token = token;
        call->reply_kind = reply_kind;
        r = sd_bus_call_async(b->bus, NULL, m, on_reply, call, 10 * 1000 * 1000);
        sd_bus_message_unref(m);
        if (r < 0)
                free(call);
        return r < 0 ? r : 0;
}

void lfb_close(lfb_bus *b) {
        if (!b)
                return;
        sd_bus_flush_close_unref(b->bus);
        free(b);
}
