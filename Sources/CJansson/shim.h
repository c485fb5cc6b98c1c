#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H

#include <jansson.h>

/* jansson's type tests and reference counting are macros or inline functions
   that Swift cannot always import; typed wrappers make them callable. */

static inline int cjansson_typeof(const json_t *json) { return json_typeof(json); }
static inline void cjansson_incref(json_t *json) { json_incref(json); }
static inline void cjansson_decref(json_t *json) { json_decref(json); }

static inline json_t *cjansson_true(void) { return json_true(); }
static inline json_t *cjansson_false(void) { return json_false(); }
static inline json_t *cjansson_null(void) { return json_null(); }

/* Object insertion of a value whose reference is handed over; key may hold any
   bytes (length-delimited). Returns 0 on success. */
static inline int cjansson_object_setn_new(json_t *object, const char *key, size_t len, json_t *value) {
    return json_object_setn_new_nocheck(object, key, len, value);
}

/* Object iteration without the json_object_foreach macro. */
static inline void *cjansson_object_iter(json_t *object) { return json_object_iter(object); }
static inline void *cjansson_object_iter_next(json_t *object, void *iter) { return json_object_iter_next(object, iter); }
static inline const char *cjansson_object_iter_key(void *iter) { return json_object_iter_key(iter); }
static inline size_t cjansson_object_iter_key_len(void *iter) { return json_object_iter_key_len(iter); }
static inline json_t *cjansson_object_iter_value(void *iter) { return json_object_iter_value(iter); }

#endif
