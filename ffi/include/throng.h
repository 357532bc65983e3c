/*
 * Throng: cooperative pathfinding for thousands of units on a grid.
 * The C interface: one live world (WHCA* with the engine's promotions,
 * budgets and worker threads) driven from C or C++.
 *
 * Build: `cargo build --release -p throng-ffi` gives target/release/
 * libthrong_c.a and libthrong_c.so. Link the static library with
 * `-lpthread -ldl -lm` (Linux). Add `--features profiling` for Tracy zones.
 *
 * Every call returns a ThrongStatus; on failure throng_last_error() says
 * what went wrong (which input, what was expected). Calls check their
 * pointers and never crash on bad arguments. Calls on one world must not
 * overlap, but a world may move between threads (created on a loading
 * thread, stepped on the game's); separate worlds may run side by side.
 */
#ifndef THRONG_H
#define THRONG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ThrongStatus {
    THRONG_OK = 0,
    THRONG_ERROR_NULL_POINTER = 1,     /* a pointer the call needs was null */
    THRONG_ERROR_INVALID_ARGUMENT = 2, /* a setting or size out of range, an empty group */
    THRONG_ERROR_OFF_MAP = 3,          /* a cell outside the map */
    THRONG_ERROR_WALL = 4,             /* a cell that is a wall */
    THRONG_ERROR_STALE_UNIT = 5,       /* the id names no living unit */
    THRONG_ERROR_TOO_MANY_UNITS = 6,   /* max_units reached, or no table room for the kind */
    THRONG_ERROR_MAP_FILE = 7,         /* the map file cannot be read or parsed */
    THRONG_ERROR_BUFFER_TOO_SMALL = 8, /* the length needed is reported */
    THRONG_ERROR_INTERNAL = 9,         /* a bug in Throng: free the world */
    THRONG_ERROR_IO = 10               /* a file could not be created or written */
} ThrongStatus;

/* Unit states (ThrongUnitInfo.state). */
#define THRONG_MOVING 0u      /* on its way (or planned and about to move) */
#define THRONG_ARRIVED 1u     /* on its goal, no goal queued */
#define THRONG_WAITING 2u     /* spawned on a held cell: enters once it is free */
#define THRONG_STUCK 3u       /* no progress for stuck_after ticks */
#define THRONG_UNREACHABLE 4u /* its goal cannot be reached in the current map */
#define THRONG_GONE 255u      /* throng_unit_infos: the id is stale */

/* Event kinds (ThrongEvent.kind). */
#define THRONG_EVENT_SPAWNED 0u     /* entered the map on (x, y) */
#define THRONG_EVENT_ARRIVED 1u     /* stepped onto its goal (x, y) */
#define THRONG_EVENT_STUCK 2u
#define THRONG_EVENT_UNSTUCK 3u
#define THRONG_EVENT_UNREACHABLE 4u
#define THRONG_EVENT_REACHABLE 5u   /* a block was lifted */
#define THRONG_EVENT_EVICTED 6u     /* a block went up on it: it leaves */
#define THRONG_EVENT_DESPAWNED 7u

/* A world (opaque). */
typedef struct ThrongWorld ThrongWorld;

/* A unit's id: slot and generation in one word; stale once despawned. */
typedef uint64_t ThrongUnit;

typedef struct ThrongConfig {
    uint32_t window;       /* WHCA* window, ticks (16) */
    uint32_t threads;      /* worker threads (0: all cores) */
    uint64_t budget_us;    /* wall-clock planning budget per tick (0: none) */
    uint64_t budget_nodes; /* node budget per tick, deterministic (0: none) */
    uint32_t max_units;    /* most units alive at once (1024) */
    uint32_t stuck_after;  /* ticks without progress before THRONG_STUCK (64) */
    uint8_t eight_connected; /* 1: diagonal moves too; 0: four (0) */
    uint8_t check_moves;     /* 1: the validator checks every tick (1) */
} ThrongConfig;

typedef struct ThrongUnitDesc {
    uint32_t x, y;           /* the cell it enters on (its body's top-left) */
    uint32_t goal_x, goal_y; /* its goal */
    uint8_t size;            /* side of its square body, 1..8 (0 reads as 1) */
    uint8_t pace;            /* ticks a move of one cell takes, 1..8 (0 reads as 1) */
    uint8_t priority;        /* Silver's unit priority: higher plans first */
    uint8_t four_way;        /* 1: straight steps only */
    uint8_t curves;          /* 1: curved turns too */
} ThrongUnitDesc;

typedef struct ThrongUnitInfo {
    uint32_t x, y;           /* top-left of the rectangle it covers */
    uint32_t width, height;  /* (its body; mid-step of a slow move, the box it sweeps) */
    uint32_t goal_x, goal_y;
    uint32_t state;          /* THRONG_MOVING ... THRONG_UNREACHABLE */
} ThrongUnitInfo;

typedef struct ThrongTick {
    uint32_t tick;           /* the tick the step produced */
    uint32_t moved;          /* units that changed cell */
    uint64_t searches;
    uint64_t nodes;
    uint64_t carried_over;   /* due searches left for a later tick (budget) */
    double step_us;          /* the whole step */
    double plan_us;          /* of which planning */
} ThrongTick;

typedef struct ThrongEvent {
    ThrongUnit unit;
    uint32_t tick;
    uint32_t kind;           /* THRONG_EVENT_... */
    uint32_t x, y;           /* the cell, for SPAWNED and ARRIVED (else UINT32_MAX) */
} ThrongEvent;

typedef struct ThrongStats {
    uint32_t ticks;
    uint32_t units;          /* living, waiting to enter included */
    uint32_t states[5];      /* units per state, indexed by THRONG_MOVING .. THRONG_UNREACHABLE */
    uint64_t overruns;       /* steps over the wall-clock budget */
    uint64_t collisions;     /* validator violations (0 unless Throng has a bug) */
    double tick_mean_ms, tick_p99_ms, tick_max_ms;
} ThrongStats;

/* Library. */
const char *throng_version(void);
/* The last failure's message on this thread ("" if none); valid until the next failure. */
const char *throng_last_error(void);
ThrongStatus throng_config_default(ThrongConfig *config);

/* Worlds. `config` may be NULL (defaults). Free with throng_world_free. */
ThrongStatus throng_world_new(const uint8_t *passable, uint32_t width, uint32_t height,
                              const ThrongConfig *config, ThrongWorld **out);
ThrongStatus throng_world_load(const char *movingai_map_path, const ThrongConfig *config,
                               ThrongWorld **out);
void throng_world_free(ThrongWorld *world);

/* The game's calls: checked now, applied at the next step. */
ThrongStatus throng_spawn(ThrongWorld *world, const ThrongUnitDesc *desc, ThrongUnit *out);
ThrongStatus throng_despawn(ThrongWorld *world, ThrongUnit unit);
ThrongStatus throng_request_move(ThrongWorld *world, ThrongUnit unit, uint32_t x, uint32_t y);
ThrongStatus throng_queue_move(ThrongWorld *world, ThrongUnit unit, uint32_t x, uint32_t y);
ThrongStatus throng_stop(ThrongWorld *world, ThrongUnit unit);
/* A cell each around (x, y); the group's units may trade goals on the way. */
ThrongStatus throng_order_group(ThrongWorld *world, const ThrongUnit *units, size_t count,
                                uint32_t x, uint32_t y);
ThrongStatus throng_block(ThrongWorld *world, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);
ThrongStatus throng_unblock(ThrongWorld *world, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);

/* Recording: every call from now on is written to `script_path` as an event script, and the
 * map (if `map_path` is not NULL) as a MovingAI file, to replay the run from the command line:
 * `throng run --map MAP --events SCRIPT --trace trace.csv`. Before the first step only. The
 * script is flushed every tick; throng_record_stop flushes it and reports a failed write. */
ThrongStatus throng_record_start(ThrongWorld *world, const char *script_path, const char *map_path);
ThrongStatus throng_record_stop(ThrongWorld *world);

/* One tick. `out` may be NULL. Unpolled events of the previous step are dropped. */
ThrongStatus throng_step(ThrongWorld *world, ThrongTick *out);

/* Reading the world. */
ThrongStatus throng_poll_events(ThrongWorld *world, ThrongEvent *out, size_t capacity,
                                size_t *count);
ThrongStatus throng_unit_info(ThrongWorld *world, ThrongUnit unit, ThrongUnitInfo *out);
/* Many at once (a renderer's read): stale ids get THRONG_GONE; `gone` (may be NULL) counts them. */
ThrongStatus throng_unit_infos(ThrongWorld *world, const ThrongUnit *units, size_t count,
                               ThrongUnitInfo *out, size_t *gone);
ThrongStatus throng_planned_path(ThrongWorld *world, ThrongUnit unit, uint32_t *xy,
                                 size_t capacity, size_t *len);
ThrongStatus throng_units(ThrongWorld *world, ThrongUnit *out, size_t capacity, size_t *count);
uint32_t throng_now(const ThrongWorld *world);
/* The run so far, for a debug overlay (counts every unit: not every frame). */
ThrongStatus throng_stats(ThrongWorld *world, ThrongStats *out);
void throng_map_size(const ThrongWorld *world, uint32_t *width, uint32_t *height);
/* 1 if a unit may stand on (x, y) now: on the map, no wall, no building. */
uint8_t throng_cell_open(const ThrongWorld *world, uint32_t x, uint32_t y);
uint64_t throng_collisions(const ThrongWorld *world);

#ifdef __cplusplus
}
#endif

#endif /* THRONG_H */
