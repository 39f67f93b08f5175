dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The ompi-evt developers.
dnl $COPYRIGHT$
dnl
dnl $HEADER$
dnl
dnl OMPI_EVT_PMIX_CONFIG: what evt/pmix needs of the PMIx library, beyond
dnl pkg-config finding it (configure.ac checks PMIX_CFLAGS / PMIX_LIBS):
dnl the client, tool and server headers (the tests start a PMIx server of
dnl their own, tools attach as PMIx tools), the event attributes evt/pmix
dnl sets on every notification, and the calls it makes.
AC_DEFUN([OMPI_EVT_PMIX_CONFIG], [
    evt_pmix_save_CPPFLAGS=$CPPFLAGS
    evt_pmix_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $PMIX_CFLAGS"
    LIBS="$LIBS $PMIX_LIBS"
    AC_CHECK_HEADERS([pmix.h pmix_tool.h pmix_server.h], [],
        [AC_MSG_ERROR([the PMIx headers (pmix.h, pmix_tool.h, pmix_server.h) were not found. On Debian 12: apt-get install libpmix-dev])])
    AC_MSG_CHECKING([for the PMIx event attributes evt/pmix needs])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <pmix.h>]],
        [[const char *k[] = {PMIX_EVENT_NON_DEFAULT, PMIX_EVENT_DO_NOT_CACHE,
                             PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_HDLR_NAME,
                             PMIX_LOCAL_PEERS, PMIX_HOSTNAME};
          (void) k; return PMIX_EXTERNAL_ERR_BASE;]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([PMIx is too old for evt/pmix (PMIX_EVENT_DO_NOT_CACHE, PMIX_EVENT_NON_DEFAULT...: PMIx 3 or later)])])
    AC_CHECK_FUNCS([PMIx_Notify_event PMIx_Register_event_handler PMIx_tool_init PMIx_server_init],
        [], [AC_MSG_ERROR([libpmix lacks $ac_func])])
    CPPFLAGS=$evt_pmix_save_CPPFLAGS
    LIBS=$evt_pmix_save_LIBS
])

dnl The component's configure hook, found by autogen.sh's component
dnl discovery (config/evt_components.m4): PMIx is required by configure.ac
dnl already, so the checks above either pass or stop configure.
AC_DEFUN([MCA_ompi_evt_pmix_CONFIG], [
    OMPI_EVT_PMIX_CONFIG
    $1
])
