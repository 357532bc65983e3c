/* How a load's latency grows when both cores chase pointers at once: each
 * thread follows a random permutation of its own array, one load after
 * another, first alone and then side by side (docs/threads.md).
 *
 *   cc -O2 -pthread docs/cache_probe.c -o cache_probe
 *   ./cache_probe 1048576 20000000     # 4 MB a thread, 20 million loads
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t cells;
static long loads;
static uint32_t *arrays[2];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *chase(void *which) {
    const uint32_t *v = arrays[(uintptr_t)which];
    uint32_t j = 0;
    for (long i = 0; i < loads; i++) j = v[j];
    return (void *)(uintptr_t)j;
}

/* A random permutation (Fisher-Yates). */
static void shuffle(uint32_t *v) {
    for (size_t i = 0; i < cells; i++) v[i] = (uint32_t)i;
    for (size_t i = cells - 1; i > 0; i--) {
        size_t k = ((uint64_t)rand() * RAND_MAX + rand()) % i;
        uint32_t t = v[i];
        v[i] = v[k];
        v[k] = t;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s CELLS_PER_THREAD LOADS\n", argv[0]);
        return 2;
    }
    cells = strtoul(argv[1], NULL, 10);
    loads = strtol(argv[2], NULL, 10);
    for (int k = 0; k < 2; k++) {
        arrays[k] = malloc(cells * sizeof(uint32_t));
        if (!arrays[k] || cells < 2) return 2;
        shuffle(arrays[k]);
    }
    double t = now();
    volatile uintptr_t sink = (uintptr_t)chase((void *)0);
    double alone = now() - t;
    pthread_t a, b;
    t = now();
    pthread_create(&a, NULL, chase, (void *)0);
    pthread_create(&b, NULL, chase, (void *)1);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    double both = now() - t;
    (void)sink;
    printf("%zu KB a thread: alone %.1f ns a load, side by side %.1f ns a load\n",
           cells * sizeof(uint32_t) / 1024, alone / loads * 1e9, both / loads * 1e9);
    return 0;
}
