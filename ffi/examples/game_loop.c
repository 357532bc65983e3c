/*
 * A game loop in C: a 64x64 map with a wall across it and one gap, 300 units
 * spawned on the left edge and sent across as a group, a building put up in the gap's
 * approach and taken down again, events read every frame, one unit's
 * waypoints read for drawing, and the calls a game gets wrong answered with
 * a status and a message.
 *
 *   cargo build --release -p throng-ffi
 *   cc -O2 -Iffi/include ffi/examples/game_loop.c target/release/libthrong_c.a \
 *      -lpthread -ldl -lm -o game_loop && ./game_loop [FRAMES [RECORDING]]
 *
 * With RECORDING, the run's calls go to RECORDING.events and its map to
 * RECORDING.map: `throng run --map RECORDING.map --events RECORDING.events
 * --trace trace.csv` replays it.
 *
 * Exits 0 when every unit arrived without a collision and every bad call
 * failed as it should.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "throng.h"

enum { W = 64, H = 64, UNITS = 300 };

static int failures = 0;

static void expect(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAILED: %s (last error: %s)\n", what, throng_last_error());
        failures++;
    }
}

/* A one-cell unit entering on (x, y), bound for (gx, gy). */
static ThrongUnitDesc one_cell(uint32_t x, uint32_t y, uint32_t gx, uint32_t gy) {
    ThrongUnitDesc d = {0};
    d.x = x;
    d.y = y;
    d.goal_x = gx;
    d.goal_y = gy;
    d.size = 1;
    d.pace = 1;
    return d;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 600;

    /* The map: open, with a wall down column 32 and a gap at rows 28-35. */
    static uint8_t passable[W * H];
    memset(passable, 1, sizeof passable);
    for (int y = 0; y < H; y++) {
        if (y < 28 || y > 35) {
            passable[y * W + 32] = 0;
        }
    }

    ThrongConfig config;
    throng_config_default(&config);
    config.threads = 2;
    config.budget_us = 2000; /* at most 2 ms of planning a frame */
    config.max_units = 512;

    ThrongWorld *world = NULL;
    ThrongStatus s = throng_world_new(passable, W, H, &config, &world);
    if (s != THRONG_OK) {
        fprintf(stderr, "cannot create the world: %s\n", throng_last_error());
        return 1;
    }
    printf("throng %s\n", throng_version());
    if (argc > 2) {
        char events_path[1024], map_path[1024];
        snprintf(events_path, sizeof events_path, "%s.events", argv[2]);
        snprintf(map_path, sizeof map_path, "%s.map", argv[2]);
        expect(throng_record_start(world, events_path, map_path) == THRONG_OK, "record");
    }

    /* Spawn: columns 0-4 on the left, each unit standing (its goal its cell). */
    static ThrongUnit units[UNITS];
    int spawned = 0;
    for (uint32_t x = 0; x < 5 && spawned < UNITS; x++) {
        for (uint32_t y = 2; y < H - 2 && spawned < UNITS; y++) {
            ThrongUnitDesc d = one_cell(x, y, x, y);
            s = throng_spawn(world, &d, &units[spawned]);
            expect(s == THRONG_OK, "spawn on an open cell");
            spawned++;
        }
    }
    /* All of them sent as one group across the wall: each gets a cell of its
     * own around (56, 32), and the group fills that block whatever order its
     * units come through the gap in. */
    expect(throng_order_group(world, units, (size_t)spawned, 56, 32) == THRONG_OK, "group order");

    /* What a game gets wrong is refused, with a reason. */
    ThrongUnitDesc wall = one_cell(32, 0, 0, 0);
    ThrongUnit none;
    expect(throng_spawn(world, &wall, &none) == THRONG_ERROR_WALL, "spawn on a wall refused");
    expect(strstr(throng_last_error(), "wall") != NULL, "the message names the wall");
    expect(throng_request_move(world, units[0], 64, 3) == THRONG_ERROR_OFF_MAP,
           "move target off the map refused");
    expect(throng_spawn(world, NULL, &none) == THRONG_ERROR_NULL_POINTER, "null desc refused");
    expect(throng_step(NULL, NULL) == THRONG_ERROR_NULL_POINTER, "null world refused");

    /* One unit spawned and removed again: its id goes stale. */
    ThrongUnitDesc extra = one_cell(10, 10, 11, 10);
    ThrongUnit gone;
    expect(throng_spawn(world, &extra, &gone) == THRONG_OK, "spawn the extra unit");
    expect(throng_despawn(world, gone) == THRONG_OK, "despawn it");
    expect(throng_request_move(world, gone, 5, 5) == THRONG_ERROR_STALE_UNIT,
           "an order to a despawned unit refused");

    int arrived = 0, stuck = 0, spawned_events = 0;
    ThrongEvent events[256];
    uint32_t route[2 * 128];
    double worst_us = 0, total_us = 0;
    int steps = 0;
    for (int frame = 0; frame < frames; frame++) {
        if (frame == 20) {
            /* A building goes up in front of the gap, and comes down later. */
            expect(throng_block(world, 36, 26, 39, 29) == THRONG_OK, "block");
        }
        if (frame == 80) {
            expect(throng_unblock(world, 36, 26, 39, 29) == THRONG_OK, "unblock");
        }
        ThrongTick tick;
        expect(throng_step(world, &tick) == THRONG_OK, "step");
        steps++;
        total_us += tick.step_us;
        if (tick.step_us > worst_us) {
            worst_us = tick.step_us;
        }
        size_t n;
        do {
            expect(throng_poll_events(world, events, 256, &n) == THRONG_OK, "poll events");
            for (size_t i = 0; i < n; i++) {
                switch (events[i].kind) {
                case THRONG_EVENT_ARRIVED: arrived++; break;
                case THRONG_EVENT_STUCK: stuck++; break;
                case THRONG_EVENT_SPAWNED: spawned_events++; break;
                default: break;
                }
            }
        } while (n == 256);
        if (frame % 100 == 0) {
            size_t len = 0;
            s = throng_planned_path(world, units[0], route, 128, &len);
            expect(s == THRONG_OK || s == THRONG_ERROR_BUFFER_TOO_SMALL, "route");
            ThrongUnitInfo info;
            expect(throng_unit_info(world, units[0], &info) == THRONG_OK, "unit info");
            printf("tick %u: unit 0 at (%u, %u), %zu waypoints to (%u, %u); %d arrived\n",
                   tick.tick, info.x, info.y, len, info.goal_x, info.goal_y, arrived);
        }
        int home = 0;
        for (int i = 0; i < spawned; i++) {
            ThrongUnitInfo info;
            if (throng_unit_info(world, units[i], &info) == THRONG_OK &&
                info.state == THRONG_ARRIVED) {
                home++;
            }
        }
        if (home == spawned) {
            printf("all %d units home at tick %u\n", spawned, tick.tick);
            break;
        }
    }

    size_t living = 0;
    ThrongUnit ids[UNITS + 8];
    expect(throng_units(world, ids, UNITS + 8, &living) == THRONG_OK, "list units");
    uint64_t collisions = throng_collisions(world);
    ThrongStats stats;
    expect(throng_stats(world, &stats) == THRONG_OK, "stats");
    printf("stats: %u ticks, %u units (%u arrived), step mean %.3f ms, p99 %.3f ms, max %.3f ms\n",
           stats.ticks, stats.units, stats.states[THRONG_ARRIVED], stats.tick_mean_ms,
           stats.tick_p99_ms, stats.tick_max_ms);
    expect(stats.states[THRONG_ARRIVED] == (uint32_t)spawned, "stats count every arrival");
    printf("%d units, %zu living, %d spawn events, %d arrival events, %d stuck events\n",
           spawned, living, spawned_events, arrived, stuck);
    printf("%d steps: mean %.1f us, worst %.1f us; collisions %llu\n", steps,
           total_us / steps, worst_us, (unsigned long long)collisions);
    expect(living == (size_t)spawned, "every spawned unit is living");
    expect(collisions == 0, "no collisions");
    for (int i = 0; i < spawned; i++) {
        ThrongUnitInfo info;
        if (throng_unit_info(world, units[i], &info) != THRONG_OK || info.state != THRONG_ARRIVED) {
            fprintf(stderr, "unit %d not home\n", i);
            failures++;
            break;
        }
    }
    if (argc > 2) {
        expect(throng_record_stop(world) == THRONG_OK, "stop recording");
    }
    throng_world_free(world);
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
