#include "CNotificationsBus.h"

#include "CSystemBus.h"

#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
#define NOTIFICATIONS_PATH "/org/freedesktop/Notifications"

int ldn_session_bus_open(const char *address, sd_bus **out) {
        if (!address)
                return sd_bus_open_user(out);
        return las_bus_open(address, out);
}

int ldn_notify(sd_bus *bus, const char *app_name, const char *summary, const char *body, uint8_t urgency,
               uint64_t timeout_usec, uint32_t *id) {
        sd_bus_message *call = NULL, *reply = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r = sd_bus_message_new_method_call(bus, &call, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_NAME,
                                               "Notify");
        if (r < 0)
                goto finish;
        r = sd_bus_message_append(call, "susssasa{sv}i", app_name, (uint32_t)0, "", summary, body, 0, 2, "urgency", "y",
                                  urgency, "transient", "b", 1, (int32_t)-1);
        if (r < 0)
                goto finish;
        r = sd_bus_call(bus, call, timeout_usec, &error, &reply);
        if (r < 0)
                goto finish;
        r = sd_bus_message_read(reply, "u", id);
finish:
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        sd_bus_message_unref(call);
        return r < 0 ? r : 0;
}

int ldn_close(sd_bus *bus, uint32_t id, uint64_t timeout_usec) {
        sd_bus_message *call = NULL, *reply = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r = sd_bus_message_new_method_call(bus, &call, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_NAME,
                                               "CloseNotification");
        if (r < 0)
                goto finish;
        r = sd_bus_message_append(call, "u", id);
        if (r < 0)
                goto finish;
        r = sd_bus_call(bus, call, timeout_usec, &error, &reply);
finish:
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        sd_bus_message_unref(call);
        return r < 0 ? r : 0;
}

void ldn_bus_close(sd_bus *bus) {
        sd_bus_flush_close_unref(bus);
}
