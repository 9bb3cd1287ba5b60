#!/usr/bin/env bash
# make cluster-check, part 1: a real Slurm cluster on one machine (issue 34).
# slurmctld in the root network namespace on a bridge (10.77.0.1), one slurmd per compute
# node, each in its own network namespace (veth on the bridge, 10.77.0.1X) and UTS namespace
# (its own host name), munge for authentication; all daemons in the foreground, all state in
# $WORK, everything removed on exit. Then, over INPUT:
#   1. one-machine baseline: convert INPUT (--jobs 1, one node's CPU) -> single/ (--timeout 600
#      here and in the array: a decode slowed by this loaded machine must not turn into a
#      timeout error in one run only, which is not what this compares)
#   2. array of N shards (deploy/slurm/convert-array.sbatch) + merge (afterok) -> array/;
#      merged manifest == single's entry for entry (timing fields aside), renditions byte-identical
#   3. drill: the same into drill/, SIGKILL every process of the node running a task half-way
#      (slurmd, slurmstepd, convert), restart the node; Slurm requeues the task; result as 2,
#      plus no stray temporary file
#   4. the array again into array/: every shard skips every unchanged input (only failures
#      that depend on the command line, a limit or a timeout, are tried again), files unchanged
# Usage: slurm.sh BIN INPUT WORK [N]    (root; needs slurmctld slurmd munge iproute2)
set -euo pipefail
BIN=$(readlink -f "$1"); INPUT=$(readlink -f "$2"); WORK=$3; N=${4:-4}
HERE=$(cd "$(dirname "$0")" && pwd); REPO=$(cd "$HERE/../.." && pwd)
NODES=(node1 node2); BR=jmcc0; NET=10.77.0
deadline=$((SECONDS + ${SLURM_CHECK_SECONDS:-1500}))
log() { printf '[slurm %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { log "FAIL: $*"; exit 1; }

cleanup() {
  trap '' INT TERM  # a second signal must not cut the clean-up short
  set +e
  for n in "${NODES[@]}"; do
    pids=$(ip netns pids "jmcc-$n" 2>/dev/null); [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    ip netns del "jmcc-$n" 2>/dev/null; ip link del "jmcc-$n-h" 2>/dev/null
  done
  [ -f "$WORK/slurmctld.pid" ] && kill "$(cat "$WORK/slurmctld.pid")" 2>/dev/null
  [ -n "${CTLD_PID:-}" ] && kill "$CTLD_PID" 2>/dev/null
  [ -f "$WORK/munged.pid" ] && kill "$(cat "$WORK/munged.pid")" 2>/dev/null
  ip link del "$BR" 2>/dev/null
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# What a killed earlier run may have left (names this script owns only).
for n in "${NODES[@]}"; do ip netns del "jmcc-$n" 2>/dev/null || true; ip link del "jmcc-$n-h" 2>/dev/null || true; done
ip link del "$BR" 2>/dev/null || true
rm -rf "$WORK"; mkdir -p "$WORK"/{spool,state,logs}
chmod 755 "$WORK"

# --- munge: a fresh key, the daemon on a private socket ------------------------------------
dd if=/dev/urandom of="$WORK/munge.key" bs=1024 count=1 status=none; chmod 400 "$WORK/munge.key"
munged --force --socket="$WORK/munge.sock" --key-file="$WORK/munge.key" --pid-file="$WORK/munged.pid" \
  --log-file="$WORK/logs/munged.log" --seed-file="$WORK/munge.seed"
export SLURM_CONF="$WORK/slurm.conf"

# --- network: a bridge and one namespace per node -------------------------------------------
ip link add "$BR" type bridge; ip addr add "$NET.1/24" dev "$BR"; ip link set "$BR" up
i=10
for n in "${NODES[@]}"; do
  i=$((i + 1))
  ip netns add "jmcc-$n"
  ip link add "jmcc-$n-h" type veth peer name eth0 netns "jmcc-$n"
  ip link set "jmcc-$n-h" master "$BR" up
  ip -n "jmcc-$n" addr add "$NET.$i/24" dev eth0
  ip -n "jmcc-$n" link set eth0 up; ip -n "jmcc-$n" link set lo up
done

# --- slurm.conf: no cgroups (no systemd here), linuxproc tracking, one CPU per node ---------
{
  cat <<EOF
ClusterName=jmcc
SlurmctldHost=controller($NET.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge.sock
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool/%n
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd-%n.pid
SlurmctldLogFile=$WORK/logs/slurmctld.log
SlurmdLogFile=$WORK/logs/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
JobRequeue=1
SlurmdTimeout=20
SlurmctldTimeout=20
InactiveLimit=0
KillWait=5
MinJobAge=600
SchedulerParameters=sched_interval=2
EOF
  i=10
  for n in "${NODES[@]}"; do i=$((i + 1)); echo "NodeName=$n NodeAddr=$NET.$i CPUs=1 RealMemory=4096 State=UNKNOWN"; done
  echo "PartitionName=batch Nodes=$(IFS=,; echo "${NODES[*]}") Default=YES MaxTime=60 State=UP"
} > "$SLURM_CONF"

# The controller answers to its own host name (SlurmctldHost), so it gets a UTS namespace too.
unshare --uts sh -c "hostname controller; exec slurmctld -D -i -f $SLURM_CONF" >"$WORK/logs/slurmctld.out" 2>&1 &
CTLD_PID=$!
start_node() {  # a node: its own network and UTS namespace (host name = node name). nsenter, not
  # `ip netns exec`, which remounts /sys and so hides /sys/fs/cgroup, without which slurmd stops.
  mkdir -p "$WORK/spool/$1"
  nsenter --net="/run/netns/jmcc-$1" unshare --uts sh -c "hostname $1; exec slurmd -D -N $1 -f $SLURM_CONF" \
    >>"$WORK/logs/slurmd-$1.out" 2>&1 &
  disown  # killed on purpose (the drill, the clean-up): no "Killed" line from the shell
}
for n in "${NODES[@]}"; do start_node "$n"; done

wait_idle() {  # every node idle (or mixed/allocated), within 60 s
  local t=$((SECONDS + 60))
  while [ $SECONDS -lt $t ]; do
    states=$(sinfo -h -N -o "%N %t" 2>/dev/null | sort -u)
    [ -n "$states" ] && ! echo "$states" | grep -qvE ' (idle|mix|alloc)$' && return 0
    sleep 1
  done
  sinfo -N 2>&1; tail -20 "$WORK"/logs/*.log; fail "nodes not up in 60 s"
}
wait_idle
log "cluster up: $(sinfo -h -N -o '%N(%t)' | tr '\n' ' ')"
for n in "${NODES[@]}"; do log "  $n: $(scontrol show node "$n" | grep -oE '(NodeAddr|NodeHostName)=[^ ]*' | tr '\n' ' ')"; done

# --- 1. one-machine baseline ------------------------------------------------------------------
# setsid: its own session, as slurmd's tasks have, so the kernel's autogroup scheduling gives
# the baseline the same CPU share a task gets on this (shared, loaded) machine.
t0=$(date +%s.%N)
setsid -w /usr/bin/time -o "$WORK/logs/time-single.txt" -f '%e %U %S %M' \
  "$BIN" convert "$INPUT" --output "$WORK/single" --jobs 1 --quiet --timeout 600 2>"$WORK/logs/single.err" || [ $? -le 1 ] || fail "single run"
single_s=$(echo "$(date +%s.%N) - $t0" | bc)
read -r _ su ss srss < <(tail -n 1 "$WORK/logs/time-single.txt")  # after "Command exited with non-zero status 1"
assets=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['assets'])" "$WORK/single/manifest.json")
log "one machine (--jobs 1): $assets assets in ${single_s} s wall, $(echo "$su + $ss" | bc) s CPU, $((srss / 1024)) MB peak RSS"

submit_array() {  # OUTPUT -> prints "ARRAY_ID MERGE_ID"
  local out=$1 a m
  a=$(JM_BIN="$WORK/journal-media-timed" sbatch --parsable --array=0-$((N - 1)) -o "$WORK/logs/task-%A_%a.out" \
        "$REPO/deploy/slurm/convert-array.sbatch" "$INPUT" "$out" --timeout 600)
  m=$(JM_BIN="$BIN" sbatch --parsable --dependency=afterok:"$a" -o "$WORK/logs/merge-%j.out" \
        "$REPO/deploy/slurm/merge.sbatch" "$out" "$N")
  echo "$a $m"
}
wait_job() {  # JOBID: until no task of it is pending or running
  while squeue -h -j "$1" 2>/dev/null | grep -q .; do
    [ $SECONDS -lt $deadline ] || { squeue; fail "time is up waiting for job $1"; }
    sleep 1
  done
}
FAILED=""
compare() {  # OUTPUT LABEL: merged manifest and renditions vs single/ (a difference fails the check at the end)
  python3 "$HERE/compare_runs.py" "$WORK/single" "$1" --label "$2" || FAILED="$FAILED $2"
}
shards() {  # OUTPUT JOBID: per shard, where it ran, what it did, its wall/CPU time and peak RSS
  python3 "$HERE/shard_figures.py" "$1" "$N" "$WORK/logs" "$2"
}
# convert under /usr/bin/time (wall, user, sys, peak RSS per run) for the figures; the batch
# script itself calls whatever JM_BIN names.
cat > "$WORK/journal-media-timed" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "$WORK/logs/time-\${SLURM_ARRAY_JOB_ID}_\${SLURM_ARRAY_TASK_ID}.txt" -f '%e %U %S %M' "$BIN" "\$@"
EOF
chmod +x "$WORK/journal-media-timed"

# --- 2. array + merge ---------------------------------------------------------------------------
t0=$(date +%s.%N)
read -r A M < <(submit_array "$WORK/array")
log "array job $A (shards 0..$((N - 1))), merge job $M (afterok:$A)"
wait_job "$A"; wait_job "$M"
array_s=$(echo "$(date +%s.%N) - $t0" | bc)
[ -f "$WORK/array/manifest.json" ] || { cat "$WORK"/logs/task-*.out "$WORK"/logs/merge-*.out; fail "no merged manifest"; }
log "array of $N on ${#NODES[@]} nodes + merge: ${array_s} s (one machine --jobs 1: ${single_s} s)"
shards "$WORK/array" "$A"
compare "$WORK/array" "array"

# --- 3. drill: a node lost half-way -----------------------------------------------------------
read -r D DM < <(submit_array "$WORK/drill")
log "drill: array job $D, merge job $DM"
victim=""; task=""
half=$(( assets / N / 2 ))
# First a running task whose convert has started on its node, then a tight watch of its
# journal (one line per finished asset), so the kill lands near half its share.
while [ -z "$victim" ]; do
  [ $SECONDS -lt $deadline ] || fail "time is up before the drill"
  while read -r id node; do
    if ip netns pids "jmcc-$node" | xargs -r ps -o args= -p | grep -q ' convert '; then victim=$node; task=${id#*_}; break; fi
  done < <(squeue -h -j "$D" -t R -o "%i %N")
  [ -n "$victim" ] || squeue -h -j "$D" | grep -q . || fail "drill: every task ended before one could be caught"
  sleep 0.1
done
j="$WORK/drill/.manifest.shard-$task-of-$N.journal.jsonl"
share=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['assets']))" "$WORK/array/manifest.shard-$task-of-$N.json")
until [ "$(cat "$j" 2>/dev/null | wc -l)" -gt $((share / 2)) ]; do
  [ $SECONDS -lt $deadline ] || fail "time is up before the drill"
  [ -e "$WORK/drill/manifest.shard-$task-of-$N.json" ] && break  # it finished first: kill it anyway
  sleep 0.02
done
kill -9 $(ip netns pids "jmcc-$victim") 2>/dev/null || true
done_n=$(( $(wc -l < "$j") - 1 ))  # less the journal's header line
log "drill: SIGKILLed every process of $victim (slurmd, slurmstepd, convert) with task $task's journal at $done_n of $share assets"
sleep 2
log "drill: restarting $victim's slurmd"
start_node "$victim"
# Slurm holds a requeued batch job ~2 min (EligibleTime) before it may start again; once the
# controller has requeued the task (it notices when the restarted slurmd registers without
# it), release it now so the check stays short. Still Slurm's own requeue, only not the wait.
t=$((SECONDS + 120))
until scontrol show job "${D}_$task" 2>/dev/null | grep -q 'Restarts=[1-9]'; do
  [ $SECONDS -lt $t ] || fail "drill: task $task not requeued within 120 s"; sleep 1
done
scontrol update JobId="${D}_$task" StartTime=now 2>&1 | sed 's/^/    scontrol: /' || true
log "drill: task $task requeued by Slurm ($(grep -o 'Batch JobId=[^ ]* missing[^,]*' "$WORK/logs/slurmctld.log" | tail -n 1)), released"
wait_job "$D"; wait_job "$DM"
runs=$(grep -h "^shard $task/" "$WORK"/logs/task-"$D"_"$task".out)
log "drill: task $task ran $(echo "$runs" | wc -l) times: $(echo "$runs" | tr '\n' ';')"
echo "$runs" | grep -q 'restart [1-9]' || fail "drill: task $task was not requeued"
[ -f "$WORK/drill/manifest.json" ] || fail "drill: no merged manifest"
shards "$WORK/drill" "$D"
read -r rp rs < <(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; print(s['processed'], s['skipped'])" "$WORK/drill/manifest.shard-$task-of-$N.json")
log "drill: the requeued run reused $rs entries of its journal and converted $rp"
compare "$WORK/drill" "drill"

# --- 4. the same array again: a no-op --------------------------------------------------------------
find "$WORK/array" -type f ! -name 'manifest*' ! -name '.manifest*' ! -name '.journal-media*' -printf '%P %s %T@\n' | sort > "$WORK/before.txt"
cp "$WORK/array/manifest.json" "$WORK/manifest-before.json"
t0=$(date +%s.%N)
read -r R RM < <(submit_array "$WORK/array")
wait_job "$R"; wait_job "$RM"
rerun_s=$(echo "$(date +%s.%N) - $t0" | bc)
find "$WORK/array" -type f ! -name 'manifest*' ! -name '.manifest*' ! -name '.journal-media*' -printf '%P %s %T@\n' | sort > "$WORK/after.txt"
# By design (EarlierEntryReuse.isLasting) a failure that depends on the command line (a
# limit: --max-pixels, --max-bytes; a timeout; an unreadable file) is tried again on every
# run, from the header, without decoding: those are the only assets a re-run may process.
read -r processed skipped retried < <(python3 - "$WORK/array/manifest.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
again = [e["source"] for e in m["assets"] if e["error"] and (e["error"]["stage"] in ("read", "limits", "write") or
         e["error"]["reason"] in ("timeout", "cancelled", "busy", "writeFailed", "unreadable", "overByteLimit", "overPixelLimit"))]
print(m["summary"]["processed"], m["summary"]["skipped"], len(again))
EOF
)
log "second run: ${rerun_s} s; processed $processed, skipped $skipped; failures tried again by design (limits, timeouts): $retried"
cmp -s "$WORK/before.txt" "$WORK/after.txt" || { diff "$WORK/before.txt" "$WORK/after.txt" | head; fail "second run changed renditions"; }
[ "$processed" = "$retried" ] || fail "second run processed $processed assets, expected $retried"
shards "$WORK/array" "$R"
compare "$WORK/array" "rerun"
[ -z "$FAILED" ] || fail "output differs from the one-machine run in:$FAILED"
log "PASS: $N shards on ${#NODES[@]} nodes; one machine ${single_s} s, array ${array_s} s, rerun ${rerun_s} s"
