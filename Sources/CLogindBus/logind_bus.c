#include "CLogindBus.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-bus.h>
#include "CSystemBus.h"

#define LOGIND "org.freedesktop.login1"
#define MANAGER_PATH "/org/freedesktop/login1"
#define MANAGER "org.freedesktop.login1.Manager"
#define SESSION "org.freedesktop.login1.Session"
/* Sessions whose uid is remembered for their SessionRemoved; beyond, an end closes every uid's. */
#define MAX_SESSIONS 4096

typedef struct {
        char *id;
        uint32_t uid;
} session_uid;

typedef struct {
        sd_bus *bus;
        llb_event_fn on_event;
        void *context;
        char *owner; /* the unique name owning org.freedesktop.login1, or NULL */
        session_uid sessions[MAX_SESSIONS];
        int session_count;
} watch;

/* Whether `m` comes from logind itself: its sender is the current owner of the name. */
static int from_logind(watch *w, sd_bus_message *m) {
        const char *sender = sd_bus_message_get_sender(m);
        return w->owner && sender && strcmp(sender, w->owner) == 0;
}

/* The uid of the session at `path`, asked of logind's owner; -1 when it does not say. */
static int64_t session_user(watch *w, const char *path) {
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        int64_t uid = -1;
        if (sd_bus_get_property(w->bus, w->owner, path, SESSION, "User", &error, &reply, "(uo)") >= 0) {
                uint32_t value = 0;
                const char *user_path = NULL;
                if (sd_bus_message_read(reply, "(uo)", &value, &user_path) >= 0)
                        uid = value;
        }
        sd_bus_message_unref(reply);
        sd_bus_error_free(&error);
        return uid;
}

static void remember(watch *w, const char *id, uint32_t uid) {
        for (int i = 0; i < w->session_count; i++)
                if (strcmp(w->sessions[i].id, id) == 0) {
                        w->sessions[i].uid = uid;
                        return;
                }
        if (w->session_count == MAX_SESSIONS)
                return;
        char *copy = strdup(id);
        if (!copy)
                return;
        w->sessions[w->session_count++] = (session_uid){copy, uid};
}

/* The remembered uid of session `id`, forgotten; -1 when it was never learnt. */
static int64_t forget(watch *w, const char *id) {
        for (int i = 0; i < w->session_count; i++)
                if (strcmp(w->sessions[i].id, id) == 0) {
                        int64_t uid = w->sessions[i].uid;
                        free(w->sessions[i].id);
                        w->sessions[i] = w->sessions[--w->session_count];
                        return uid;
                }
        return -1;
}

/* Whether a session of `uid` is still remembered. */
static int has_session(const watch *w, uint32_t uid) {
        for (int i = 0; i < w->session_count; i++)
                if (w->sessions[i].uid == uid)
                        return 1;
        return 0;
}

static int on_lock(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        watch *w = userdata;
        if (!from_logind(w, m))
                return 0;
        int64_t uid = session_user(w, sd_bus_message_get_path(m));
        if (uid >= 0)
                w->on_event(w->context, LLB_LOCK, uid);
        return 0;
}

static int on_sleep(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        watch *w = userdata;
        int start = 0;
        if (from_logind(w, m) && sd_bus_message_read(m, "b", &start) >= 0 && start)
                w->on_event(w->context, LLB_SLEEP, -1);
        return 0;
}

static int on_session_new(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        watch *w = userdata;
        const char *id = NULL, *path = NULL;
        if (!from_logind(w, m) || sd_bus_message_read(m, "so", &id, &path) < 0)
                return 0;
        int64_t uid = session_user(w, path);
        if (uid >= 0)
                remember(w, id, (uint32_t)uid);
        return 0;
}

static int on_session_removed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        watch *w = userdata;
        const char *id = NULL, *path = NULL;
        if (!from_logind(w, m) || sd_bus_message_read(m, "so", &id, &path) < 0)
                return 0;
        int64_t uid = forget(w, id);
        w->on_event(w->context, LLB_LOGOUT, uid);
        if (uid >= 0 && !has_session(w, (uint32_t)uid))
                w->on_event(w->context, LLB_LAST_LOGOUT, uid);
        return 0;
}

static void set_owner(watch *w, const char *owner) {
        free(w->owner);
        w->owner = owner && *owner ? strdup(owner) : NULL;
}

static int on_owner(sd_bus_message *m, void *userdata, sd_bus_error *error) {
        (void)error;
        watch *w = userdata;
        const char *sender = sd_bus_message_get_sender(m);
        const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
        /* Only the bus itself speaks as org.freedesktop.DBus. */
        if (!sender || strcmp(sender, "org.freedesktop.DBus") != 0 ||
            sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 || strcmp(name, LOGIND) != 0)
                return 0;
        set_owner(w, new_owner);
        return 0;
}

/* The owner of org.freedesktop.login1 now, and the uid of each of its sessions. */
static void learn(watch *w) {
        sd_bus_creds *creds = NULL;
        const char *unique = NULL;
        if (sd_bus_get_name_creds(w->bus, LOGIND, SD_BUS_CREDS_UNIQUE_NAME, &creds) >= 0 &&
            sd_bus_creds_get_unique_name(creds, &unique) >= 0)
                set_owner(w, unique);
        sd_bus_creds_unref(creds);
        if (!w->owner)
                return;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        if (sd_bus_call_method(w->bus, w->owner, MANAGER_PATH, MANAGER, "ListSessions", &error, &reply, "") >= 0 &&
            sd_bus_message_enter_container(reply, 'a', "(susso)") >= 0) {
                const char *id, *user, *seat, *path;
                uint32_t uid;
                while (sd_bus_message_read(reply, "(susso)", &id, &uid, &user, &seat, &path) > 0)
                        remember(w, id, uid);
        }
        sd_bus_message_unref(reply);
        sd_bus_error_free(&error);
}

static int subscribe(watch *w) {
        int r = sd_bus_add_match(w->bus, NULL,
                                 "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                                 "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='" LOGIND "'",
                                 on_owner, w);
        if (r >= 0)
                r = sd_bus_add_match(w->bus, NULL,
                                     "type='signal',sender='" LOGIND "',interface='" SESSION "',member='Lock',"
                                     "path_namespace='/org/freedesktop/login1/session'",
                                     on_lock, w);
        if (r >= 0)
                r = sd_bus_match_signal(w->bus, NULL, LOGIND, MANAGER_PATH, MANAGER, "PrepareForSleep", on_sleep, w);
        if (r >= 0)
                r = sd_bus_match_signal(w->bus, NULL, LOGIND, MANAGER_PATH, MANAGER, "SessionNew", on_session_new, w);
        if (r >= 0)
                r = sd_bus_match_signal(w->bus, NULL, LOGIND, MANAGER_PATH, MANAGER, "SessionRemoved",
                                        on_session_removed, w);
        return r;
}

static int run(watch *w, int stop_fd) {
        for (;;) {
                int r = sd_bus_process(w->bus, NULL);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                uint64_t usec = UINT64_MAX;
                int timeout = -1;
                if (sd_bus_get_timeout(w->bus, &usec) >= 0 && usec != UINT64_MAX) {
                        struct timespec now;
                        clock_gettime(CLOCK_MONOTONIC, &now);
                        uint64_t now_usec = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
                        timeout = usec <= now_usec ? 0 : (int)((usec - now_usec + 999) / 1000);
                }
                struct pollfd fds[2] = {{sd_bus_get_fd(w->bus), (short)sd_bus_get_events(w->bus), 0},
                                        {stop_fd, POLLIN, 0}};
                if (poll(fds, 2, timeout) < 0 && errno != EINTR)
                        return -errno;
                if (fds[1].revents)
                        return 0;
        }
}

int llb_watch(const char *address, int stop_fd, llb_event_fn on_event, void *context) {
        watch *w = calloc(1, sizeof *w);
        if (!w)
                return -ENOMEM;
        w->on_event = on_event;
        w->context = context;
        int r = las_bus_open(address, &w->bus);
        if (r >= 0 && (r = subscribe(w)) >= 0) {
                /* Subscribed first, so no change of owner between the two goes unseen. */
                learn(w);
                on_event(context, LLB_READY, -1);
                r = run(w, stop_fd);
        }
        sd_bus_flush_close_unref(w->bus);
        for (int i = 0; i < w->session_count; i++)
                free(w->sessions[i].id);
        free(w->owner);
        free(w);
        return r;
}
