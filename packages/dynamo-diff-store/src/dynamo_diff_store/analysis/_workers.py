"""Worker processes of an import (the pool over ranks and the pool over byte ranges) end with the importer."""

from __future__ import annotations

import os
import threading
import time


def exit_with_parent(parent: int) -> None:
    """Initializer of every worker process: exit when the importing process (pid `parent`, taken before the
    worker was started, so that a worker starting after the importer died also notices) is gone.

    A worker blocks on its task queue, and every worker holds that queue's write end too (fork copies it), so
    after a `kill -9` of the importer nothing ever wakes it: it would live on, holding memory and the
    importer's stdout. A daemon thread notices the worker being re-parented and ends it."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="dynamo-diff-exit-with-parent", daemon=True).start()
