"""Shared parts of the hardening campaigns: the outcome of one input, figures, seeds.

Each campaign is a script (`uv run python tools/campaigns/<name>.py [--smoke] [--seed N]`) that prints its figures
and exits 1 when any trial failed (a traceback, a hang, a wrong outcome)."""

from __future__ import annotations

import argparse
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from dynamo_diff_schema.errors import DynamoDiffError

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
RAW_SEEDS = sorted((FIXTURES / "captures").glob("*/raw"))
TLPARSE_LOGS = sorted((FIXTURES / "corpus" / "tlparse-tests").glob("*.log"))
# The rest of the corpus: the provenance logs beside them and every file of the multi-rank directories.
CORPUS_OTHER_LOGS = sorted(
    p
    for p in (FIXTURES / "corpus" / "tlparse-tests").rglob("*")
    if p.is_file() and p.name != "LICENSE" and p not in TLPARSE_LOGS
)
CORPUS_RANK_DIRS = sorted(p for p in (FIXTURES / "corpus" / "tlparse-tests").iterdir() if p.is_dir())
TLPARSE_EXPORTS = sorted(p for p in (FIXTURES / "corpus" / "tlparse-exports").iterdir() if p.is_dir())


class HangError(Exception):
    """Raised by the alarm when one input runs past its time bound."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise HangError(f"no outcome within {seconds}s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Figures:
    campaign: str
    trials: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    slowest: float = 0.0

    def run(self, name: str, action: Callable[[], str], *, bound: float) -> str:
        """Run one trial: `action` returns an outcome label; a DynamoDiffError is an outcome (its code);
        anything else escaping, or running past `bound` seconds, is a failure."""
        self.trials += 1
        t0 = time.monotonic()
        try:
            with time_bound(bound):
                outcome = action()
        except DynamoDiffError as err:
            outcome = f"error:{err.code.value}"
        except HangError:
            outcome = "HANG"
            self.fail(f"{name}: no outcome within {bound}s")
        except Exception:
            outcome = "TRACEBACK"
            self.fail(f"{name}:\n{traceback.format_exc()}")
        self.slowest = max(self.slowest, time.monotonic() - t0)
        self.outcomes[outcome] += 1
        if self.trials % 5000 == 0:
            elapsed = time.monotonic() - self.started
            print(f"  ... {self.trials} trials in {elapsed:.0f}s, {len(self.failures)} failures so far", flush=True)
        return outcome

    def fail(self, message: str) -> None:
        """Record a failed trial and say so at once (a full campaign runs for a long time)."""
        self.failures.append(message)
        print("  FAIL " + message.replace("\n", "\n       "), flush=True)

    def report(self) -> int:
        elapsed = time.monotonic() - self.started
        print(f"campaign {self.campaign}: {self.trials} trials in {elapsed:.1f}s (slowest {self.slowest:.2f}s)")
        for outcome, n in sorted(self.outcomes.items()):
            print(f"  {outcome:<32} {n}")
        print(f"  failures: {len(self.failures)} (each printed when it happened)")
        return 1 if self.failures else 0


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--smoke", action="store_true", help="bounded mode for CI (well under a minute)")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def finish(figures: Figures) -> None:
    sys.exit(figures.report())
