"""What the instructor sees while a batch grades: a bar with rate and ETA on a terminal, a plain
line per submission elsewhere (CI logs), and nothing from the kernels; then the batch's summary."""
import sys
from dataclasses import dataclass, field

from tqdm import tqdm


class Progress:
    def __init__(self, total: int, quiet: bool = False, stream=None):
        self.stream = stream or sys.stderr
        self.quiet, self.total, self.count = quiet, total, 0
        self.bar = None if quiet or not self.stream.isatty() else \
            tqdm(total=total, unit="notebook", file=self.stream, dynamic_ncols=True)

    def done(self, lesson: str, student: str, failed: str | None) -> None:
        self.count += 1
        line = f"[{self.count}/{self.total}] {lesson} {student}: {'FAILED ' + failed.split(chr(10))[0] if failed else 'graded'}"
        if self.bar is not None:
            self.bar.update(1)
            if failed:
                self.bar.write(line)
        elif not self.quiet:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@dataclass
class BatchReport:
    graded: list[tuple[str, str]] = field(default_factory=list)
    failed: dict[tuple[str, str], str] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    left_out: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # of a submission's folder, and why
    seconds: float = 0.0
    worker_seconds: float = 0.0

    def lines(self) -> list[str]:
        done = len(self.graded) + len(self.failed)
        rate = f", {self.seconds / done:.1f} s per notebook" if done else ""
        out = [f"graded {len(self.graded)}, failed {len(self.failed)}, already graded {len(self.skipped)} "
               f"in {self.seconds:.1f} s{rate}"]
        out += [f"could not grade {student} / {lesson}: {why}".replace("\n", "\n    ")
                for (lesson, student), why in sorted(self.failed.items())]
        out += [f"left out of {student} / {lesson} (only the submission's own regular files are graded): "
                f"{', '.join(left)}" for (lesson, student), left in sorted(self.left_out.items())]
        return out
