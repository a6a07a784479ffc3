# A one-node Slurm cluster on localhost for a test, from Debian's slurm-wlm and munge: munged,
# slurmctld and slurmd started in a temporary directory with a configuration written here (no
# cgroups: proctrack/linuxproc, task/none), every daemon stopped by its PID when the test ends.
# Sourced by a test script; needs root (slurmd runs jobs as their user) and the packages
# (scripts/setup --test). slurm_skip_reason prints why not, for a test to report as skipped.
# The test calls slurm_stop from its own EXIT trap.

slurm_skip_reason() {
  if [[ $(id -u) -ne 0 ]]; then echo "needs root to run slurmd"; return; fi
  local tool
  for tool in munged slurmctld slurmd srun sinfo; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed (scripts/setup --test)"; return; }
  done
  # slurmd 22.05 initialises its cgroup plugin whatever the configuration says, and stops
  # without a cgroup file system (a chroot that bind-mounts /sys alone has none).
  if ! grep -q ' /sys/fs/cgroup ' /proc/mounts; then
    echo "no cgroup file system at /sys/fs/cgroup, without which slurmd 22.05 does not start"
  fi
}

# slurm_start DIR: a cluster of one node (this host, 127.0.0.1) whose state lives in DIR.
# Exports SLURM_CONF; ports 16817/16818 unless SLURM_TEST_PORT_BASE says otherwise.
slurm_start() {
  local dir=$1 host port=${SLURM_TEST_PORT_BASE:-16817}
  host=$(hostname)
  mkdir -p "$dir/spool" "$dir/state" "$dir/log"
  SLURM_PIDS=()
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$dir/munge.key"
  munged -F -f --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
    --log-file="$dir/log/munged.log" --pid-file="$dir/munged.pid" \
    --seed-file="$dir/munged.seed" >"$dir/log/munged.out" 2>&1 &
  SLURM_PIDS+=($!)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=benchtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=benchtest Nodes=$host Default=YES MaxTime=10 State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  local waited=0
  until [[ -S $dir/munge.sock ]]; do
    sleep 0.1; waited=$((waited + 1))
    [[ $waited -lt 100 ]] || { echo "munged did not start: $(tail -n 3 "$dir/log/munged.out")" >&2; return 1; }
  done
  slurmctld -D -f "$dir/slurm.conf" >"$dir/log/slurmctld.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurmd -D -f "$dir/slurm.conf" >"$dir/log/slurmd.out" 2>&1 &
  SLURM_PIDS+=($!)
  waited=0
  until sinfo -h -o %t 2>/dev/null | grep -qx idle; do
    sleep 0.2; waited=$((waited + 1))
    if [[ $waited -ge 150 ]]; then
      echo "slurm did not come up: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>/dev/null)" >&2
      return 1
    fi
  done
}

# Stops every daemon slurm_start started, by its PID, and waits for each to exit.
slurm_stop() {
  local pid
  for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SLURM_PIDS[i]}
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  SLURM_PIDS=()
}
