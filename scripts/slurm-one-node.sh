#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to run the workflow through
# Snakemake's Slurm executor (docs/workflow.md). Debian's slurm-wlm and
# munge (Slurm 22.05): munged, then slurmctld and slurmd in the foreground
# (-D) as background processes, proctrack/linuxproc, no cgroups; job
# accounting through slurmdbd on a local MariaDB, so that `sacct` lists
# every job with its elapsed time and peak memory (MaxRSS). ACCOUNTING=0
# leaves slurmdbd out (then `sacct` has nothing; squeue still shows
# finished jobs for MinJobAge = 1 h). Run as root.
#
#   scripts/slurm-one-node.sh start [CPUS]   # install if needed, configure, start
#   scripts/slurm-one-node.sh status
#   scripts/slurm-one-node.sh stop           # stop the daemons it started
set -euo pipefail
STATE=/var/lib/slurm-one-node
CONF=/etc/slurm/slurm.conf
cmd=${1:-start}

stop_daemons() {
    for d in slurmd slurmctld slurmdbd mariadbd munged; do
        if [ -f "$STATE/$d.pid" ]; then
            pid=$(cat "$STATE/$d.pid")
            kill "$pid" 2>/dev/null && echo "stopped $d ($pid)" || true
            rm -f "$STATE/$d.pid"
        fi
    done
}

case $cmd in
stop)
    stop_daemons
    exit 0
    ;;
status)
    sinfo
    squeue
    exit 0
    ;;
start) ;;
*)
    echo "usage: $0 start [CPUS] | status | stop" >&2
    exit 2
    ;;
esac

CPUS=${2:-$(nproc)}
ACCOUNTING=${ACCOUNTING:-1}
packages=()
command -v slurmctld > /dev/null || packages+=(slurm-wlm)
command -v munged > /dev/null || packages+=(munge)
if [ "$ACCOUNTING" = 1 ]; then
    command -v slurmdbd > /dev/null || packages+=(slurmdbd)
    command -v mariadbd > /dev/null || packages+=(mariadb-server)
fi
if [ ${#packages[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" > /dev/null
fi
mkdir -p "$STATE" /var/spool/slurmd /var/spool/slurmctld /var/log/slurm /run/munge /etc/slurm
stop_daemons

# munge: a key, then the daemon (it forks; its pid file says where it went).
if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --keyfile /etc/munge/munge.key
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 0700 /etc/munge
chmod 0400 /etc/munge/munge.key
rm -f /run/munge/munged.pid
if [ "$(id -u munge 2>/dev/null)" ]; then
    runuser -u munge -- /usr/sbin/munged --force
else
    /usr/sbin/munged --force
fi
sleep 1
cp /run/munge/munged.pid "$STATE/munged.pid"
munge -n | unmunge > /dev/null

if [ "$ACCOUNTING" = 1 ]; then
    # MariaDB for slurmdbd: its own socket, the database and a user.
    mkdir -p /run/mysqld
    chown mysql:mysql /run/mysqld
    nohup /usr/sbin/mariadbd --user=mysql > /var/log/slurm/mariadbd.out 2>&1 &
    echo $! > "$STATE/mariadbd.pid"
    for _ in $(seq 30); do
        mariadb -e "select 1" > /dev/null 2>&1 && break
        sleep 1
    done
    mariadb -e "CREATE DATABASE IF NOT EXISTS slurm_acct_db;
        CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'slurm';
        GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
    cat > /etc/slurm/slurmdbd.conf <<DBD
# Written by scripts/slurm-one-node.sh.
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=slurm
StorageLoc=slurm_acct_db
PidFile=$STATE/slurmdbd.daemon.pid
LogFile=/var/log/slurm/slurmdbd.log
DBD
    chmod 600 /etc/slurm/slurmdbd.conf
    nohup /usr/sbin/slurmdbd -D > /var/log/slurm/slurmdbd.out 2>&1 &
    echo $! > "$STATE/slurmdbd.pid"
    for _ in $(seq 30); do
        sacctmgr -n list cluster > /dev/null 2>&1 && break
        sleep 1
    done
    sacctmgr -i add cluster onenode > /dev/null 2>&1 || true
    ACCT="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=5"
else
    ACCT="AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none"
fi

HOST=$(hostname -s)
# Memory the node offers: what the machine has, less 2 GiB for the rest.
MEM=$(($(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) - 2048))
cat > "$CONF" <<CONF
# Written by scripts/slurm-one-node.sh: one node, $CPUS CPUs, no cgroups.
ClusterName=onenode
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$STATE/slurmctld.daemon.pid
SlurmdPidFile=$STATE/slurmd.daemon.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
$ACCT
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MinJobAge=3600
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroups: a cgroup.conf would only be read by cgroup plugins.
rm -f /etc/slurm/cgroup.conf

nohup /usr/sbin/slurmctld -D -i > /var/log/slurm/slurmctld.out 2>&1 &
echo $! > "$STATE/slurmctld.pid"
nohup /usr/sbin/slurmd -D > /var/log/slurm/slurmd.out 2>&1 &
echo $! > "$STATE/slurmd.pid"
for _ in $(seq 30); do
    if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
        sinfo
        exit 0
    fi
    sleep 1
done
echo "the node did not come up: see /var/log/slurm/" >&2
tail -5 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
