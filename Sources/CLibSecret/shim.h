#pragma once
#include <libsecret/secret.h>

/* A SecretSchema holds a fixed array of 32 attributes, which Swift imports as
 * a 32-tuple; one static schema in C is simpler. Its items are found by
 * "name" (what the secret is for), under a schema name of Trackcast's own so
 * that no other program's items match. */
static inline const SecretSchema *tc_secret_schema(void) {
    static const SecretSchema schema = {
        "org.trackcast.Trackcast.Secret", SECRET_SCHEMA_NONE,
        { { "name", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}
