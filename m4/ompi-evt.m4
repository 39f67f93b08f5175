# ompi-evt.m4: what an evt component built outside the ompi-evt tree needs
# in its configure.ac (installed in <prefix>/share/aclocal).
#
# OMPI_EVT_COMPONENT_INIT
#   Finds the installed ompi-evt through pkg-config (ompi-evt-component:
#   its headers, evt.h and the kit, Open MPI's developer headers, and
#   libompi_evt) and sets, with AC_SUBST:
#     OMPI_EVT_COMPONENT_CFLAGS, OMPI_EVT_COMPONENT_LIBS
#     OMPI_EVT_COMPONENTDIR  where Open MPI loads components from (the
#                            folder ompi-evt was configured with;
#                            --with-evt-componentdir=DIR to change it)
#   and fails with the reason when ompi-evt is missing.
AC_DEFUN([OMPI_EVT_COMPONENT_INIT], [
    AC_REQUIRE([PKG_PROG_PKG_CONFIG])
    PKG_CHECK_MODULES([OMPI_EVT_COMPONENT], [ompi-evt-component], [],
        [AC_MSG_ERROR([ompi-evt was not found by pkg-config (ompi-evt-component): install ompi-evt, or point PKG_CONFIG_PATH at its lib/pkgconfig folder])])
    AC_ARG_WITH([evt-componentdir],
        [AS_HELP_STRING([--with-evt-componentdir=DIR],
                        [where to install the component (default: the folder ompi-evt installs its components in)])],
        [OMPI_EVT_COMPONENTDIR=$withval],
        [OMPI_EVT_COMPONENTDIR=`$PKG_CONFIG --variable=componentdir ompi-evt-component`])
    AS_IF([test -z "$OMPI_EVT_COMPONENTDIR"],
        [AC_MSG_ERROR([ompi-evt-component.pc names no componentdir: pass --with-evt-componentdir=DIR])])
    AC_SUBST([OMPI_EVT_COMPONENTDIR])
])
