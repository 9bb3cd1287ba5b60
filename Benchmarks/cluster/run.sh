#!/usr/bin/env bash
# `make cluster-check` (issue 34; opt-in, as root): the deploy/ files checked and run for real
# on this one machine, loopback and network namespaces only, everything removed on exit.
#   0. deploy/kubernetes/*.yaml validated offline against Kubernetes' schemas
#      (kubernetes-validate, PyPI, in a venv under .build-venv-cluster; --strict: unknown
#      fields are errors); deploy/haproxy/haproxy.cfg checked by `haproxy -c`; the batch
#      scripts by `bash -n`.
#   1. Benchmarks/cluster/slurm.sh: a Slurm cluster of 2 nodes (one network + UTS namespace
#      each), an array of N shards + a dependent merge over the corpus (or Samples/), a node
#      killed half-way, the array run twice.
#   2. Benchmarks/cluster/fleet.sh: 3 `serve` behind HAProxy, SIGKILL one, roll SIGTERM.
# Usage: run.sh BIN   (CORPUS: input folder, default ../shared/corpus, else Samples/;
#        CLUSTER_WORK: scratch folder, default /tmp/jm-cluster-check; CLUSTER_SHARDS: N, default 4;
#        FLEET_SECONDS, FLEET_CLIENTS, FLEET_GET_EVERY: see fleet.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(readlink -f "$1")
[ "$(id -u)" = 0 ] || { echo "make cluster-check: needs root (network namespaces, slurmd)"; exit 2; }
WORK=${CLUSTER_WORK:-/tmp/jm-cluster-check}
CORPUS=${CORPUS:-../shared/corpus}
if [ -d "$CORPUS" ]; then INPUT=$CORPUS; else INPUT=Samples; fi
echo "cluster-check: $("$BIN" --version), input $(readlink -f "$INPUT") ($(find "$INPUT" -type f | wc -l) files)"

VENV=.build-venv-cluster
if [ ! -x "$VENV/bin/kubernetes-validate" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate>=1.30,<2"
fi
"$VENV/bin/kubernetes-validate" --strict --quiet deploy/kubernetes/*.yaml
echo "cluster-check: deploy/kubernetes/*.yaml valid (kubernetes-validate $("$VENV/bin/kubernetes-validate" --version 2>&1 | tail -n 1) --strict, its default Kubernetes schemas)"
JM_LISTEN=127.0.0.1:1 JM_BACKEND_1=127.0.0.1:2 JM_BACKEND_2=127.0.0.1:3 JM_BACKEND_3=127.0.0.1:4 \
  JM_HAPROXY_SOCKET=/tmp/jm-haproxy-check.sock haproxy -c -q -f deploy/haproxy/haproxy.cfg
bash -n deploy/slurm/convert-array.sbatch deploy/slurm/merge.sbatch
echo "cluster-check: deploy/haproxy/haproxy.cfg and deploy/slurm/*.sbatch parse"

mkdir -p "$WORK"
timeout 1800 Benchmarks/cluster/slurm.sh "$BIN" "$INPUT" "$WORK/slurm" "${CLUSTER_SHARDS:-4}"
timeout 600 Benchmarks/cluster/fleet.sh "$BIN" "$INPUT" "$WORK/fleet"
echo "cluster-check: passed"
