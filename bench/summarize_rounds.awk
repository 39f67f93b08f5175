# Summary of interleaved benchmark rounds. Input lines: CONFIG TEST VALUE
# (one per run and figure). Per test and configuration: the median, its
# ratio to the median of configuration "plain", and the spread of the runs
# (min..max, the interquartile range relative to the median). The test
# "events" (a count, not a figure) is left out.
{ v[$1 " " $2] = v[$1 " " $2] " " $3; if (!(($1) in seen)) { seen[$1]=1; order[n++]=$1 } tests[$2]=1 }
function sort(s, a,   k, i, j, t) {
    k = split(s, a, " ");
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k
}
function q(a, k, f,   x, i) { x = 1 + (k - 1) * f; i = int(x); return (i >= k) ? a[k] : a[i] + (x - i) * (a[i + 1] - a[i]) }
END {
    for (t in tests) {
        if (t == "events") continue;
        k = sort(v["plain " t], b); base = q(b, k, 0.5);
        for (i = 0; i < n; i++) {
            c = order[i]; k = sort(v[c " " t], a); m = q(a, k, 0.5);
            printf "%-9s %-16s median %12.1f ratio %.4f | min %12.1f max %12.1f IQR/median %5.2f%% | n %d\n",
                c, t, m, m / base, a[1], a[k], 100 * (q(a, k, 0.75) - q(a, k, 0.25)) / m, k;
        }
    }
}
