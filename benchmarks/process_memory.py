"""The memory of a grade command's process tree at its peak, and its CPU time, by role.

Summed RSS counts every page a forked child shares with its warm parent once per process, so it
overstates a tree of forks; PSS shares each page among the processes that map it, and its sum is
what the machine really holds. Both are sampled; the roles are read from each process's command
line and parent: the command itself, the workers' fork server and its workers, the kernels' warm
parent (the zygote) and its kernels (with their supervisors and clients). A process's CPU time
(user and system) is its last sample's, so a process shorter than one sample is missed.
"""
import threading

import psutil

ROLES = ("command", "workers", "zygote", "kernels", "other")


def role(process: psutil.Process, root: int) -> str:
    if process.pid == root:
        return "command"
    line = " ".join(process.cmdline())
    if "zygote_client" in line:
        return "kernels"
    if "autograder.grading.kernels.zygote" in line:  # forks keep their parent's command line
        parent = process.parent()
        return "kernels" if parent and "kernels.zygote" in " ".join(parent.cmdline()) else "zygote"
    if "forkserver" in line:
        return "workers"
    return "other"


class PeakMemory:
    """The largest summed RSS and PSS of a process and all its children, sampled every 0.2 s."""

    def __init__(self, pid: int):
        self.process, self.root = psutil.Process(pid), pid
        self.peak_rss, self.peak_pss, self.at_peak, self.most = 0, 0, {}, {}
        self._cpu: dict[tuple, tuple[str, float]] = {}  # (pid, start) -> (role, CPU seconds at its last sample)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.wait(0.2):
            try:
                tree = [self.process, *self.process.children(recursive=True)]
            except psutil.Error:
                continue
            rss, pss, count = 0, dict.fromkeys(ROLES, 0), dict.fromkeys(ROLES, 0)
            for process in tree:
                try:
                    info, kind, times = process.memory_full_info(), role(process, self.root), process.cpu_times()
                    key = (process.pid, process.create_time())
                except psutil.Error:
                    continue
                self._cpu[key] = (self._cpu.get(key, (kind,))[0], times.user + times.system)
                rss += info.rss
                pss[kind] += info.pss
                count[kind] += 1
            self.peak_rss = max(self.peak_rss, rss)
            self.most = {kind: max(self.most.get(kind, 0), count[kind]) for kind in ROLES}
            if sum(pss.values()) > self.peak_pss:
                self.peak_pss, self.at_peak = sum(pss.values()), pss

    @property
    def cpu(self) -> dict[str, float]:
        """CPU seconds by role, summed over every process seen."""
        spent = dict.fromkeys(ROLES, 0.0)
        for kind, seconds in self._cpu.values():
            spent[kind] += seconds
        return spent

    def stop(self) -> float:
        """Stop sampling; the peak summed RSS in GiB (the figure earlier runs printed)."""
        self._stop.set()
        self._thread.join()
        return self.peak_rss / 1024**3
