/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* run_maxrss OUT COMMAND [ARGS...]: runs COMMAND, writes its peak resident
 * memory in KiB (getrusage ru_maxrss of the child) to the file OUT and
 * exits with COMMAND's status (128 + signal when killed). */

#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage ru;
    int status;
    pid_t pid;
    FILE *out;

    if (argc < 3) {
        fprintf(stderr, "usage: run_maxrss OUT COMMAND [ARGS...]\n");
        return 2;
    }
    pid = fork();
    if (0 > pid) {
        perror("fork");
        return 2;
    }
    if (0 == pid) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    if (pid != wait4(pid, &status, 0, &ru)) {
        perror("wait4");
        return 2;
    }
    out = fopen(argv[1], "w");
    if (NULL == out) {
        perror(argv[1]);
        return 2;
    }
    fprintf(out, "%ld\n", ru.ru_maxrss);
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
