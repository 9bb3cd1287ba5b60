# Sourced by the benchmark scripts (needs $bench and $runs set).
# measure CMD...: runs CMD $runs times and prints "best_seconds peak_rss_kib" (best wall time,
# largest resident set, both from /usr/bin/time). Before each run the folder named by
# $measure_clean, when set, is emptied; CMD's stdout is kept in $measure_stdout (default
# $bench/stdout.txt). A failing run stops the benchmark with its stderr.
measure() {
  local best="" rss=0 secs kib
  for _ in $(seq "$runs"); do
    if [ -n "${measure_clean:-}" ]; then rm -rf "$measure_clean"; mkdir -p "$measure_clean"; fi
    /usr/bin/time -f "%e %M" -o "$bench/time.txt" "$@" >"${measure_stdout:-$bench/stdout.txt}" 2>"$bench/stderr.txt" || {
      echo "benchmark command failed: $*" >&2; cat "$bench/stderr.txt" >&2; exit 1; }
    read -r secs kib < "$bench/time.txt"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
    [ "$kib" -gt "$rss" ] && rss=$kib
  done
  echo "$best $rss"
}
