/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* After MPI_Init, each rank looks at its own TCP connections to the PMIx
 * server its environment names (PMIX_SERVER_URI4, parsed here on its own,
 * not with the code under test) and prints
 *   rank R: N connections to the PMIx server, M with TCP_NODELAY
 * test_pmix_nodelay.sh compares M with N. IPv4 servers only (Open MPI 4.1's
 * mpirun on this host). Exit 2 when there is no such URI. */
#include <arpa/inet.h>
#include <dirent.h>
#include <mpi.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
    const char *uri = getenv("PMIX_SERVER_URI4");
    const char *at = NULL == uri ? NULL : strstr(uri, "tcp4://");
    char host[64];
    int port = 0, rank, conns = 0, nodelay = 0;
    struct in_addr addr;
    DIR *d;
    struct dirent *de;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (NULL == at || 2 != sscanf(at, "tcp4://%63[^:]:%d", host, &port)
        || 1 != inet_pton(AF_INET, host, &addr)) {
        fprintf(stderr, "rank %d: no tcp4 PMIX_SERVER_URI4 (%s)\n", rank, uri ? uri : "unset");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    d = opendir("/proc/self/fd");
    while (NULL != d && NULL != (de = readdir(d))) {
        struct sockaddr_in peer;
        socklen_t len = sizeof(peer);
        int fd = atoi(de->d_name), v = 0;
        socklen_t vlen = sizeof(v);

        if ('.' == de->d_name[0] || 0 != getpeername(fd, (struct sockaddr *) &peer, &len)
            || AF_INET != peer.sin_family || peer.sin_port != htons((unsigned short) port)
            || peer.sin_addr.s_addr != addr.s_addr) {
            continue;
        }
        ++conns;
        if (0 == getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &vlen) && 0 != v) {
            ++nodelay;
        }
    }
    if (NULL != d) {
        closedir(d);
    }
    printf("rank %d: %d connections to the PMIx server, %d with TCP_NODELAY\n", rank, conns,
           nodelay);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
