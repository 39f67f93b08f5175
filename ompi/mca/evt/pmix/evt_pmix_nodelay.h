/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix: Nagle's algorithm off on this process's connection to its
 * PMIx server.
 *
 * A PMIx 4.2 client talks to its server over TCP (ptl/tcp, on the
 * loopback for a local server) and leaves Nagle's algorithm on. A
 * notification is a message the server does not answer, so the next
 * message this process sends (the next batch, a fence, a deregistration)
 * waits in the kernel until the server acknowledges the notification, and
 * the server's kernel delays that acknowledgement (40 ms on Linux) for an
 * answer it never sends. Seen as a fence answered 40-90 ms late right
 * after a notification. With TCP_NODELAY each message leaves when it is
 * written. The server's own socket keeps Nagle on (its messages to a
 * sink that have no answer still wait for this side's acknowledgement):
 * that is the server's to change.
 */

#ifndef OMPI_EVT_PMIX_NODELAY_H
#define OMPI_EVT_PMIX_NODELAY_H

#include "ompi_config.h"

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

BEGIN_C_DECLS

/** A PMIx server's TCP address, as its URI gives it. */
typedef struct ompi_evt_pmix_server_addr_t {
    struct sockaddr_storage sa; /**< AF_INET or AF_INET6, port set */
    socklen_t len;
} ompi_evt_pmix_server_addr_t;

/** Parse a PMIx server URI ("NSPACE.RANK;tcp4://A.B.C.D:PORT", or tcp6
 *  with "[ADDR]:PORT"; the part before ';' is optional).
 *  @retval true  @p out is filled
 *  @retval false not a TCP URI, or malformed (@p why says which)
 *  Context: ANY (no allocation). */
bool ompi_evt_pmix_parse_server_uri(const char *uri, ompi_evt_pmix_server_addr_t *out,
                                    const char **why);

/** Set TCP_NODELAY on every stream socket of this process whose peer is
 *  @p server. @return the number of sockets set, or -1 when this process's
 *  descriptors cannot be listed. Context: INIT. */
int ompi_evt_pmix_nodelay_to(const ompi_evt_pmix_server_addr_t *server);

/** The same for the server of the environment (PMIX_SERVER_URI41, 4, 3,
 *  21, 2: the first set). @return as ompi_evt_pmix_nodelay_to(); -1 with
 *  @p why set when no URI is set or it cannot be parsed. Context: INIT. */
int ompi_evt_pmix_server_nodelay(const char **why);

END_C_DECLS

#endif /* OMPI_EVT_PMIX_NODELAY_H */
