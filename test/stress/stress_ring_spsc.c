/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: the SPSC ring primitive with a producer and a consumer thread.
 * The producer pushes N records (sequence number + a variable-length body
 * derived from it) into a small ring and counts every refusal; the consumer
 * drains in batches and checks order and contents. At the end
 * consumed + dropped == N exactly. Plain C, so it also runs under TSan.
 * Usage: stress_ring_spsc [N] (default 2000000, divided by 10 in a TSan
 * build, and by $EVT_STRESS_SCALE when set). */
#include "ompi_config.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "ompi/mca/evt/base/evt_base_ring.h"
#include "test/evt_test_check.h"

#define EVT_TSAN_DIVISOR (EVT_TEST_UNDER_TSAN ? 10 : 1)

static ompi_evt_ring_spsc_t ring;
static uint64_t storage[512]; /* 4 KiB ring: full often */
static ompi_evt_ring_ctl_t ctl;
static unsigned long n_records;
static unsigned long dropped;
static atomic_int producer_done;
static size_t body_len(uint64_t seq)
{
    return 8 + 8 * (seq % 12); /* 8 .. 96 bytes */
}

static void *producer(void *arg)
{
    uint64_t buf[16];
    unsigned long seq;
    size_t len, i;

    for (seq = 0; seq < n_records; ++seq) {
        len = body_len(seq);
        buf[0] = seq;
        for (i = 1; i < len / 8; ++i) {
            buf[i] = seq * 31 + i;
        }
        if (!ompi_evt_ring_spsc_push(&ring, buf, len, OMPI_EVT_RING_KIND_USER)) {
            ++dropped;
            if (0 == dropped % 64) {
                sched_yield();
            }
        }
    }
    /* release: dropped is read by main after the join; the flag only ends
     * the consumer's loop (pairs with its acquire load). */
    atomic_store_explicit(&producer_done, 1, memory_order_release);
    return NULL;
}

static unsigned long consumed, bad_order, bad_body;

static void *consumer(void *arg)
{
    const ompi_evt_ring_hdr_t *hdr;
    const uint64_t *body;
    uint64_t last = UINT64_MAX;
    size_t i, len;
    int done;

    for (;;) {
        done = atomic_load_explicit(&producer_done, memory_order_acquire);
        (void) ompi_evt_ring_spsc_refresh(&ring);
        while (NULL != (hdr = ompi_evt_ring_spsc_peek(&ring))) {
            body = (const uint64_t *) (hdr + 1);
            len = hdr->size - sizeof(*hdr);
            if (UINT64_MAX != last && body[0] <= last) {
                ++bad_order;
            }
            if (len != body_len(body[0])) {
                ++bad_body;
            }
            for (i = 1; i < len / 8; ++i) {
                if (body[i] != body[0] * 31 + i) {
                    ++bad_body;
                    break;
                }
            }
            last = body[0];
            ++consumed;
            ompi_evt_ring_spsc_consume(&ring, hdr);
            if (ompi_evt_ring_spsc_unreleased(&ring) >= sizeof(storage) / 4) {
                ompi_evt_ring_spsc_release(&ring);
            }
        }
        ompi_evt_ring_spsc_release(&ring);
        if (done) {
            break;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t p, c;
    const char *scale = getenv("EVT_STRESS_SCALE");

    n_records = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000 / EVT_TSAN_DIVISOR;
    if (NULL != scale && atoi(scale) > 1) {
        n_records /= (unsigned long) atoi(scale);
    }
    /* Start the positions just below the 32-bit wrap. */
    CHECK(ompi_evt_ring_spsc_init(&ring, &ctl, storage, sizeof(storage), UINT_MAX - 1023, false),
          "init");
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);

    CHECK(0 == bad_order, "records consumed in the order produced");
    CHECK(0 == bad_body, "record lengths and contents intact");
    CHECK(consumed + dropped == n_records, "consumed + dropped == produced");
    CHECK(consumed > 0, "something got through");
    CHECK(ompi_evt_ring_spsc_empty(&ring), "ring empty at the end");
    printf("stress_ring_spsc: %lu records, %lu consumed, %lu dropped\n", n_records, consumed,
           dropped);
    return evt_test_report(NULL);
}
