/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix: TCP_NODELAY on the connection to the PMIx server (see
 * evt_pmix_nodelay.h for why). PMIx does not hand out its socket, so the
 * process's descriptors are searched for stream sockets whose peer is the
 * server's address.
 */

#include "ompi_config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/evt/pmix/evt_pmix_nodelay.h"

/* Context: ANY. */
bool ompi_evt_pmix_parse_server_uri(const char *uri, ompi_evt_pmix_server_addr_t *out,
                                    const char **why)
{
    const char *p, *host, *host_end, *port_at;
    char addr[INET6_ADDRSTRLEN];
    unsigned long port;
    char *end;
    bool v6;

    *why = NULL;
    if (NULL == uri) {
        *why = "no URI";
        return false;
    }
    p = strchr(uri, ';');
    p = NULL == p ? uri : p + 1;
    if (0 == strncmp(p, "tcp4://", 7)) {
        v6 = false;
    } else if (0 == strncmp(p, "tcp6://", 7)) {
        v6 = true;
    } else {
        *why = "not a tcp4:// or tcp6:// address";
        return false;
    }
    host = p + 7;
    if (v6) {
        if ('[' != *host || NULL == (host_end = strchr(host, ']')) || ':' != host_end[1]) {
            *why = "a tcp6 address is [ADDR]:PORT";
            return false;
        }
        ++host;
        port_at = host_end + 2;
    } else {
        host_end = strrchr(host, ':');
        if (NULL == host_end) {
            *why = "no port";
            return false;
        }
        port_at = host_end + 1;
    }
    if (host_end == host || (size_t) (host_end - host) >= sizeof(addr)) {
        *why = "bad address";
        return false;
    }
    memcpy(addr, host, (size_t) (host_end - host));
    addr[host_end - host] = '\0';
    errno = 0;
    /* digits only: strtoul() would take a sign and leading blanks */
    port = strtoul(port_at, &end, 10);
    if (!isdigit((unsigned char) *port_at) || 0 != errno || end == port_at || '\0' != *end
        || 0 == port || port > 65535) {
        *why = "bad port";
        return false;
    }
    memset(out, 0, sizeof(*out));
    if (v6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) &out->sa;
        if (1 != inet_pton(AF_INET6, addr, &s6->sin6_addr)) {
            *why = "bad address";
            return false;
        }
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t) port);
        out->len = sizeof(*s6);
    } else {
        struct sockaddr_in *s4 = (struct sockaddr_in *) &out->sa;
        if (1 != inet_pton(AF_INET, addr, &s4->sin_addr)) {
            *why = "bad address";
            return false;
        }
        s4->sin_family = AF_INET;
        s4->sin_port = htons((uint16_t) port);
        out->len = sizeof(*s4);
    }
    return true;
}

/* Is @p peer the address @p server names? Context: ANY. */
static bool same_peer(const struct sockaddr_storage *peer,
                      const ompi_evt_pmix_server_addr_t *server)
{
    if (peer->ss_family != server->sa.ss_family) {
        return false;
    }
    if (AF_INET == peer->ss_family) {
        const struct sockaddr_in *a = (const struct sockaddr_in *) peer;
        const struct sockaddr_in *b = (const struct sockaddr_in *) &server->sa;
        return a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr;
    }
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) peer;
    const struct sockaddr_in6 *b = (const struct sockaddr_in6 *) &server->sa;
    return a->sin6_port == b->sin6_port
           && 0 == memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(a->sin6_addr));
}

/* Context: INIT. */
int ompi_evt_pmix_nodelay_to(const ompi_evt_pmix_server_addr_t *server)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    int set = 0;

    if (NULL == d) {
        return -1;
    }
    while (NULL != (de = readdir(d))) {
        struct sockaddr_storage peer;
        socklen_t len = sizeof(peer);
        int fd, type, one = 1;
        socklen_t tlen = sizeof(type);
        char *end;
        long v;

        errno = 0;
        v = strtol(de->d_name, &end, 10);
        if ('\0' != *end || end == de->d_name || 0 != errno || v < 0 || v > INT32_MAX
            || (int) v == dirfd(d)) {
            continue;
        }
        fd = (int) v;
        /* Another thread may close this descriptor and open another under
         * its number between the look and the set: then some other TCP
         * socket gets TCP_NODELAY, which only sends its data sooner. */
        if (0 != getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) || SOCK_STREAM != type
            || 0 != getpeername(fd, (struct sockaddr *) &peer, &len) || !same_peer(&peer, server)) {
            continue;
        }
        if (0 == setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) {
            ++set;
        }
    }
    (void) closedir(d);
    return set;
}

/* Context: INIT. */
int ompi_evt_pmix_server_nodelay(const char **why)
{
    static const char *const names[] = {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                                        "PMIX_SERVER_URI21", "PMIX_SERVER_URI2"};
    ompi_evt_pmix_server_addr_t server;
    const char *uri = NULL;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && NULL == uri; ++i) {
        uri = getenv(names[i]);
    }
    if (NULL == uri) {
        *why = "no PMIX_SERVER_URI in the environment";
        return -1;
    }
    if (!ompi_evt_pmix_parse_server_uri(uri, &server, why)) {
        return -1;
    }
    *why = NULL;
    int set = ompi_evt_pmix_nodelay_to(&server);
    if (0 > set) {
        *why = "/proc/self/fd cannot be read";
    }
    return set;
}
