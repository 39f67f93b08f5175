/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests of evt/pmix's TCP_NODELAY on the connection to the PMIx
 * server (evt_pmix_nodelay.c):
 *   - server URIs as PMIx writes them (tcp4, tcp6, with and without the
 *     "nspace.rank;" prefix) are parsed; malformed ones (a sign or blanks
 *     before the port too) are refused with a reason, never read past
 *     their end;
 *   - of this process's sockets, exactly the TCP connections to the server's
 *     address get TCP_NODELAY: not a connection to another port, not the
 *     server side of the same connection, not a datagram socket;
 *   - the URI comes from the environment (PMIX_SERVER_URI41 first); none
 *     set, or a garbage one: -1 with a reason, nothing changed. */
#include "ompi_config.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ompi/mca/evt/pmix/evt_pmix_nodelay.h"

static const char *const uri_names[] = {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                                        "PMIX_SERVER_URI21", "PMIX_SERVER_URI2"};

static void clear_uris(void)
{
    for (size_t i = 0; i < sizeof(uri_names) / sizeof(uri_names[0]); ++i) {
        unsetenv(uri_names[i]);
    }
}

TestSuite(pmix_nodelay, .init = clear_uris, .timeout = 30);

Test(pmix_nodelay, server_uris_are_parsed)
{
    ompi_evt_pmix_server_addr_t a;
    const char *why;
    const struct sockaddr_in *s4 = (const struct sockaddr_in *) &a.sa;
    const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *) &a.sa;
    struct in6_addr lo6 = IN6ADDR_LOOPBACK_INIT;

    cr_assert(ompi_evt_pmix_parse_server_uri("1116274688.0;tcp4://127.0.0.1:36427", &a, &why));
    cr_assert_eq(s4->sin_family, AF_INET);
    cr_assert_eq(ntohs(s4->sin_port), 36427);
    cr_assert_eq(ntohl(s4->sin_addr.s_addr), INADDR_LOOPBACK);
    cr_assert_eq(a.len, sizeof(struct sockaddr_in));
    cr_assert(ompi_evt_pmix_parse_server_uri("tcp4://10.1.2.3:1", &a, &why));
    cr_assert_eq(ntohs(s4->sin_port), 1);
    cr_assert(ompi_evt_pmix_parse_server_uri("job.7;tcp6://[::1]:65535", &a, &why));
    cr_assert_eq(s6->sin6_family, AF_INET6);
    cr_assert_eq(ntohs(s6->sin6_port), 65535);
    cr_assert_eq(memcmp(&s6->sin6_addr, &lo6, sizeof(lo6)), 0);
}

Test(pmix_nodelay, malformed_uris_are_refused)
{
    static const char *const bad[] = {
        "",
        "x.0;",
        "x.0;usock:///tmp/pmix",
        "x.0;tcp://127.0.0.1:5",
        "tcp4://127.0.0.1",
        "tcp4://127.0.0.1:",
        "tcp4://127.0.0.1:0",
        "tcp4://127.0.0.1:65536",
        "tcp4://127.0.0.1:-1",
        "tcp4://127.0.0.1:+80",
        "tcp4://127.0.0.1:80x",
        "tcp4://127.0.0.1: 80",
        "tcp4://127.0.0.1:\n+80",
        "tcp4://127.0.0.1:99999999999999999999",
        "tcp4://:80",
        "tcp4://1.2.3:80",
        "tcp4://localhost:80",
        "tcp6://::1:80",
        "tcp6://[::1]80",
        "tcp6://[::1",
        "tcp6://[]:80",
        "tcp6://[zz::1]:80",
        "tcp4://127.0.0.1111111111111111111111111111111111111111111111111111111111111:80",
    };
    ompi_evt_pmix_server_addr_t a;
    const char *why;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        why = NULL;
        cr_assert_not(ompi_evt_pmix_parse_server_uri(bad[i], &a, &why), "accepted \"%s\"", bad[i]);
        cr_assert_not_null(why, "no reason for \"%s\"", bad[i]);
    }
    why = NULL;
    cr_assert_not(ompi_evt_pmix_parse_server_uri(NULL, &a, &why));
    cr_assert_not_null(why);
}

/* A listening TCP socket on 127.0.0.1 and an ephemeral port. */
static int listener(uint16_t *port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(sa);
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    cr_assert_geq(fd, 0);
    cr_assert_eq(bind(fd, (struct sockaddr *) &sa, sizeof(sa)), 0);
    cr_assert_eq(listen(fd, 8), 0);
    cr_assert_eq(getsockname(fd, (struct sockaddr *) &sa, &len), 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

static int connect_to(uint16_t port, int type)
{
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons(port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, type, 0);

    cr_assert_geq(fd, 0);
    cr_assert_eq(connect(fd, (struct sockaddr *) &sa, sizeof(sa)), 0);
    return fd;
}

static int nodelay_of(int fd)
{
    int v = -1;
    socklen_t len = sizeof(v);

    cr_assert_eq(getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &len), 0);
    return v;
}

Test(pmix_nodelay, only_the_connections_to_the_server)
{
    uint16_t port, other_port;
    int l = listener(&port), other = listener(&other_port);
    int c1 = connect_to(port, SOCK_STREAM), c2 = connect_to(port, SOCK_STREAM);
    int elsewhere = connect_to(other_port, SOCK_STREAM);
    int dgram = connect_to(port, SOCK_DGRAM);
    int s1 = accept(l, NULL, NULL), s2 = accept(l, NULL, NULL);
    char uri[64];
    const char *why = "unset";

    cr_assert_geq(s1, 0);
    cr_assert_geq(s2, 0);
    cr_assert_eq(nodelay_of(c1), 0, "Nagle is on by default");
    (void) snprintf(uri, sizeof(uri), "ns.0;tcp4://127.0.0.1:%u", port);
    cr_assert_eq(setenv("PMIX_SERVER_URI4", uri, 1), 0);
    /* an older name with another address comes after the newest one */
    cr_assert_eq(setenv("PMIX_SERVER_URI2", "ns.0;tcp4://127.0.0.1:9", 1), 0);
    cr_assert_eq(ompi_evt_pmix_server_nodelay(&why), 2, "%s", NULL == why ? "" : why);
    cr_assert_null(why);
    cr_assert_eq(nodelay_of(c1), 1);
    cr_assert_eq(nodelay_of(c2), 1);
    cr_assert_eq(nodelay_of(elsewhere), 0);
    cr_assert_eq(nodelay_of(s1), 0, "the server's side is not ours");
    cr_assert_eq(nodelay_of(s2), 0);
    /* once more: the same sockets, nothing else */
    cr_assert_eq(ompi_evt_pmix_server_nodelay(&why), 2);
    /* PMIX_SERVER_URI41 comes first */
    (void) snprintf(uri, sizeof(uri), "tcp4://127.0.0.1:%u", other_port);
    cr_assert_eq(setenv("PMIX_SERVER_URI41", uri, 1), 0);
    cr_assert_eq(ompi_evt_pmix_server_nodelay(&why), 1);
    cr_assert_eq(nodelay_of(elsewhere), 1);
    close(c1);
    close(c2);
    close(elsewhere);
    close(dgram);
    close(s1);
    close(s2);
    close(l);
    close(other);
}

Test(pmix_nodelay, no_or_garbage_uri_changes_nothing)
{
    uint16_t port;
    int l = listener(&port), c = connect_to(port, SOCK_STREAM);
    const char *why = NULL;

    cr_assert_eq(ompi_evt_pmix_server_nodelay(&why), -1);
    cr_assert_not_null(why);
    cr_assert_eq(setenv("PMIX_SERVER_URI3", "\x01\xff;tcp4://[", 1), 0);
    why = NULL;
    cr_assert_eq(ompi_evt_pmix_server_nodelay(&why), -1);
    cr_assert_not_null(why);
    cr_assert_eq(nodelay_of(c), 0);
    close(c);
    close(l);
}
