"""The observer `dynamo-diff capture` loads into the captured Python processes, as their `sitecustomize`.

It watches, without changing what the program does:
- the arguments of every `torch.compile` call (backend, mode, dynamic, fullgraph, options) and where it was made;
- the random seeds the program sets (`torch.manual_seed`, `random.seed`);
- the process: command line, working directory, RANK, torch's version, an uncaught exception, whether it ran its
  exit handlers, and the accelerators it initialised;
- at the start of each Dynamo compilation (torch._dynamo.callback_handler's start callback, where torch has it; for
  a compilation refused at the recompile limit, which never reaches it, where convert_frame is told the limit is
  exceeded): its compile id and the innermost 3 user frames of the stack (file, line, function) with their small scalar
  locals (bool, int, float, None, str cut to 40 characters; at most 8 a frame, none starting with `_`), at most
  2,000 a process. No other value is read or turned into text (no repr), and no frame is kept;
- which compiler settings (`torch._dynamo.config`, `torch._inductor.config`) are not at their default, set in code or
  by an environment variable, as torch's config modules tell (`_is_default`): at each `torch.compile` call and at
  exit. With it, a comparison knows what the user set from what came with a torch version.

Capture copies this file as `sitecustomize.py` into a private directory that it puts first on PYTHONPATH, and
points DYNAMO_DIFF_OBSERVE at a directory where each process appends JSON lines to `<pid>.jsonl`. Nothing here
imports torch: the wrappers are installed when the program itself imports it. Each wrapper's `__wrapped__` is
the original. A call inside a compiled function must behave as a call of the original: Dynamo looks up its
rules for `torch.compile` and `torch.manual_seed` by name when it first compiles (after the wrappers are in
place, so the wrappers get the originals' rules), and skips `random.seed` by the file its code is in (see
`impersonate`). Tested by the observed_on/observed_off fixtures: the same graphs, breaks and messages.

An existing `sitecustomize` (the next one on sys.path) is run afterwards, and the private directory is taken off
sys.path again so the program sees the sys.path it would have had. Every step is guarded: the observer can
fail, the program cannot.

This file must run on its own under any Python the user's program uses (3.8+), so it imports only the standard
library and nothing of dynamo-diff.
"""

import os
import sys

OBSERVER_VERSION = "6"
ENV_DIR = "DYNAMO_DIFF_OBSERVE"
_MAX_KINDS = 200  # distinct compile calls / seeds kept per process
_MAX_TEXT = 300
_MAX_STARTS = 2000  # compile_start events written per process
_MAX_START_BYTES = 2000000  # and their bytes (the reader reads a process's first 8 MB)
_START_FRAMES = 4  # user frames a compile_start keeps
_START_VALUES = 8  # values a frame keeps
_VALUE_TEXT = 40  # characters a str value keeps


def _install(out_dir):
    import atexit
    import json
    import threading

    lock = threading.Lock()
    path = os.path.join(out_dir, "%d.jsonl" % os.getpid())
    counts = {}  # (event, key) -> count
    state = {"exception": None, "config": None, "starts": 0, "starts_dropped": 0, "start_bytes": 0}

    def write(event):
        try:
            line = json.dumps(event, default=repr, sort_keys=True)
            with lock, open(path, "a", encoding="utf-8") as out:
                out.write(line + "\n")
        except Exception:
            pass

    def text(value):
        value = value if isinstance(value, str) else repr(value)
        return value if len(value) <= _MAX_TEXT else value[: _MAX_TEXT - 1] + "…"

    def plain(value):
        """A JSON-safe copy of an argument (the repr of anything that is not plain data)."""
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, str):
            return text(value)
        if isinstance(value, dict):
            return {text(k): plain(v) for k, v in list(value.items())[:50]}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in list(value)[:50]]
        return text(value)

    def named_like(wrapper, original):
        """The wrapper with the original's names and docstring, and the original as `__wrapped__`."""
        for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
            try:
                setattr(wrapper, attribute, getattr(original, attribute))
            except Exception:
                pass
        wrapper.__wrapped__ = original
        return wrapper

    def impersonate(original, before, filename):
        """A wrapper that calls `before` then `original`, whose code claims the original's file and names.

        Dynamo decides whether to trace a standard-library function by the file its code is in (random.py is
        skipped: a call to it is a graph break at the caller). A wrapper defined here would be traced instead,
        breaking somewhere else; compiled under the original's file name and names, it is skipped the same
        way, at the same place, with the same message (tested by the observed_on/observed_off fixtures)."""
        owner = getattr(original, "__self__", None)
        function = getattr(original, "__func__", None)
        if owner is not None and function is not None:
            # A bound method (random.seed is the hidden Random instance's seed): wrap its function and bind the
            # wrapper to the same object, so it is a method like the original (Dynamo guards on its type).
            source = (
                "def wrapper(self, *args, **kwargs):\n    before(*args, **kwargs)\n"
                "    return function(self, *args, **kwargs)\n"
            )
        else:
            source = (
                "def wrapper(*args, **kwargs):\n    before(*args, **kwargs)\n    return original(*args, **kwargs)\n"
            )
        namespace = {"before": before, "original": original, "function": function}
        exec(compile(source, filename, "exec"), namespace)
        wrapper = named_like(namespace["wrapper"], function or original)
        if owner is not None and function is not None:
            import types

            return types.MethodType(wrapper, owner)
        return wrapper

    def count(kind, event):
        key = (kind, json.dumps(event, default=repr, sort_keys=True))
        with lock:
            seen = key in counts
            if not seen and len(counts) >= 2 * _MAX_KINDS:
                counts[("truncated", "")] = 1
                return
            counts[key] = counts.get(key, 0) + 1
        if not seen:
            write(dict(event, e=kind))

    def user_caller(depth):
        """'file:line' of the innermost frame outside torch and this file."""
        try:
            frame = sys._getframe(depth)
        except ValueError:
            return None
        while frame is not None:
            name = frame.f_code.co_filename
            if name != __file__ and os.sep + "torch" + os.sep not in name:
                return "%s:%d" % (name, frame.f_lineno)
            frame = frame.f_back
        return None

    def target_name(obj):
        owner = getattr(obj, "__self__", None)
        if owner is not None and getattr(obj, "__name__", None) == "_call_impl":
            return module_name(owner)  # nn.Module.compile() compiles the module's _call_impl
        name = getattr(obj, "__qualname__", None)
        if isinstance(name, str):
            return name
        return module_name(obj)

    def module_name(obj):
        """A module's class; a wrapper that holds the user's model as `.module` (DistributedDataParallel,
        DataParallel) names it too: 'DistributedDataParallel(Net)'."""
        name = type(obj).__qualname__
        torch = sys.modules.get("torch")
        base = getattr(getattr(torch, "nn", None), "Module", None)
        inner = getattr(obj, "__dict__", {}).get("_modules", {}).get("module")
        if isinstance(base, type) and isinstance(obj, base) and isinstance(inner, base):
            return "%s(%s)" % (name, type(inner).__qualname__)
        return name

    def backend_name(backend):
        if isinstance(backend, str):
            return backend
        name = getattr(backend, "__qualname__", None) or type(backend).__qualname__
        module = getattr(backend, "__module__", None)
        return text("%s.%s" % (module, name) if module and module != "__main__" else name)

    config_modules = (("dynamo", "torch._dynamo.config"), ("inductor", "torch._inductor.config"))

    def config_overrides():
        """{'read': modules read, 'overrides': {'dynamo.key': value}} of the settings whose value is not torch's
        default (set in code or by an environment variable). Only
        modules the program already imported are read (nothing is imported here); a setting torch patches for the
        length of a compilation (torch.compile(dynamic=...)) is at its default outside it."""
        import warnings

        read, found, unset = [], {}, object()
        for prefix, name in config_modules:
            module = sys.modules.get(name)
            entries = getattr(module, "_config", None)
            is_default = getattr(module, "_is_default", None)
            if not isinstance(entries, dict) or not callable(is_default):
                continue
            read.append(prefix)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for key in list(entries):
                    try:
                        entry = entries[key]
                        if getattr(entry, "alias", None) or getattr(entry, "hide", False) or is_default(key):
                            continue
                        value = getattr(module, key)
                        # torch itself assigns some settings their default value (Dynamo restores
                        # inductor.deterministic through torch.use_deterministic_algorithms on every compile):
                        # a value equal to the default is the default, whoever wrote it.
                        if value == getattr(entry, "default", unset):
                            continue
                        found["%s.%s" % (prefix, key)] = plain(value)
                    except Exception:
                        pass
        return {"read": read, "overrides": found}

    def note_config():
        """Write the settings when they differ from the last ones written (a process killed before its exit
        handlers keeps what its last torch.compile call saw)."""
        try:
            seen = config_overrides()
            if seen != state["config"]:
                state["config"] = seen
                write({"e": "config", "read": seen["read"], "overrides": seen["overrides"]})
        except Exception:
            pass

    def patch_torch(torch):
        write({"e": "torch", "version": text(getattr(torch, "__version__", "?"))})
        original_compile = getattr(torch, "compile", None)
        if callable(original_compile):

            def compile(model=None, *args, **kwargs):
                try:
                    # @torch.compile(...) without a model returns a decorator that calls torch.compile again with
                    # the function: that second call is the one recorded.
                    if model is not None:
                        record_compile(model, kwargs)
                except Exception:
                    pass
                try:
                    return original_compile(model, *args, **kwargs)
                finally:
                    note_config()

            def record_compile(model, kwargs):
                options = kwargs.get("options")
                count(
                    "compile",
                    {
                        "backend": backend_name(kwargs.get("backend", "inductor")),
                        "mode": plain(kwargs.get("mode")),
                        "dynamic": plain(kwargs.get("dynamic")),
                        "fullgraph": bool(kwargs.get("fullgraph", False)),
                        "options": plain(options) if isinstance(options, dict) else {},
                        "disable": bool(kwargs.get("disable", False)),
                        "target": text(target_name(model)),
                        "caller": user_caller(3),
                    },
                )

            torch.compile = named_like(compile, original_compile)
        original_seed = getattr(torch, "manual_seed", None)
        if callable(original_seed):

            def manual_seed(seed):
                try:
                    count("seed", {"function": "torch.manual_seed", "value": plain(seed)})
                except Exception:
                    pass
                return original_seed(seed)

            manual_seed = named_like(manual_seed, original_seed)
            torch.manual_seed = manual_seed
            random_module = sys.modules.get("torch.random")
            if random_module is not None and getattr(random_module, "manual_seed", None) is original_seed:
                random_module.manual_seed = manual_seed

    import sysconfig

    library_dirs = []
    try:
        paths = sysconfig.get_paths()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            if paths.get(key):
                library_dirs.append(os.path.join(os.path.realpath(paths[key]), ""))
    except Exception:
        pass
    user_files = {}  # filename -> whether it is user code

    def is_user_file(name):
        known = user_files.get(name)
        if known is not None:
            return known
        found = True
        if (
            name == __file__
            or name.startswith("<")
            or os.sep + "torch" + os.sep in name
            or "site-packages" in name
            or "dist-packages" in name
        ):
            found = False
        else:
            try:
                real = os.path.realpath(name)
                found = not any(real.startswith(d) for d in library_dirs)
            except Exception:
                pass
        if len(user_files) < 10000:
            user_files[name] = found
        return found

    def scalar(value):
        """(True, the value) for the plain types kept, by exact type (a subclass could run code), a float only when
        finite; else (False, None)."""
        kind = type(value)
        if value is None or kind is bool:
            return True, value
        if kind is int:
            return (True, value) if -(2**63) <= value < 2**63 else (False, None)
        if kind is float:
            return (True, value) if abs(value) < float("inf") else (False, None)  # nan and inf are not JSON
        if kind is str:
            return True, value if len(value) <= _VALUE_TEXT else value[: _VALUE_TEXT - 1] + "…"
        return False, None

    def frame_values(frame):
        """The frame's small scalar locals: in a function, the first bound in co_varnames order; in a module (its
        locals are its globals), the last bound (a loop's variables are bound after the script's settings)."""
        code = frame.f_code
        local = frame.f_locals
        module = code.co_name == "<module>"
        names = list(local) if module else list(code.co_varnames) + list(code.co_cellvars)
        found = []
        for name in names:
            if not isinstance(name, str) or name.startswith("_") or len(name) > _VALUE_TEXT or name not in local:
                continue
            keep, value = scalar(local[name])
            if keep:
                found.append((name, value))
                if not module and len(found) >= _START_VALUES:
                    break
        return [[name, value] for name, value in found[-_START_VALUES:]]  # pairs: the order survives sort_keys

    def on_compile_start(args):
        try:
            trigger = getattr(getattr(args, "callback_trigger", None), "name", None)
            if trigger != "DYNAMO":
                return
            record_start(getattr(args, "compile_id", None), 2)
        except Exception:
            pass

    def record_start(compile_id, depth):
        """A compile_start event: the compile id and the user frames above the caller `depth` frames up."""
        try:
            with lock:
                if state["starts"] >= _MAX_STARTS:
                    state["starts_dropped"] += 1
                    return
                state["starts"] += 1
            frames = []
            frame = sys._getframe(depth)
            try:
                while frame is not None and len(frames) < _START_FRAMES:
                    name = frame.f_code.co_filename
                    # A resume function Dynamo made after a graph break runs inside the frame it resumes (and
                    # those of the breaks after it inside it): that frame is on the stack too (observer 6).
                    resumed = frame.f_code.co_name.startswith("torch_dynamo_resume_in_")
                    if isinstance(name, str) and is_user_file(name) and not resumed:
                        frames.append(
                            {
                                "file": name if len(name) <= _MAX_TEXT else name[-_MAX_TEXT:],
                                "line": frame.f_lineno,
                                "function": frame.f_code.co_name,
                                "values": frame_values(frame),
                            }
                        )
                    frame = frame.f_back
            finally:
                del frame
            if compile_id is not None and not isinstance(compile_id, str):
                compile_id = str(compile_id)  # torch's CompileId prints as '0/3'
            event = {"e": "compile_start", "compile_id": compile_id}
            event["frames"] = frames
            size = len(json.dumps(event, sort_keys=True))
            with lock:
                state["start_bytes"] += size
                if state["start_bytes"] > _MAX_START_BYTES:
                    state["starts_dropped"] += 1
                    state["starts"] -= 1
                    return
            write(event)
        except Exception:
            pass

    def patch_dynamo(dynamo):
        """Register the start callback; torch._dynamo.reset() clears the handler's callbacks, so its `clear`
        (shadowed on that one object) registers it again."""
        handler = getattr(dynamo, "callback_handler", None)
        register = getattr(handler, "register_start_callback", None)
        original_clear = getattr(handler, "clear", None)
        if not callable(register) or not callable(original_clear):
            return

        def again():
            try:
                if on_compile_start not in getattr(handler, "start_callbacks", ()):
                    register(on_compile_start)
            except Exception:
                pass

        def clear(*args, **kwargs):
            try:
                return original_clear(*args, **kwargs)
            finally:
                again()

        handler.clear = named_like(clear, original_clear)
        again()
        patch_limit(sys.modules.get("torch._dynamo.convert_frame"))

    def patch_limit(convert_frame):
        """A compilation refused at the recompile limit never reaches the start callback (torch checks the limit
        first): its start is recorded where convert_frame asks whether the limit is exceeded and is told yes."""
        for name in ("exceeds_recompile_limit", "exceeds_cache_size_limit"):
            original = getattr(convert_frame, name, None)
            if not callable(original) or getattr(original, "__wrapped__", None) is not None:
                continue

            def exceeds(*args, _original=original, **kwargs):
                result = _original(*args, **kwargs)  # whatever its signature in this torch
                try:
                    if (result[0] if isinstance(result, tuple) and result else result) is True:
                        record_start(args[1] if len(args) > 1 else kwargs.get("compile_id"), 2)
                except Exception:
                    pass
                return result

            setattr(convert_frame, name, named_like(exceeds, original))
        # Nor does one refused by `error_on_recompile`: torch raises RecompileError while it reads the recompile
        # reasons, inside the compilation's context (its compile id is the context's).
        original = getattr(convert_frame, "get_and_maybe_log_recompilation_reasons", None)
        if callable(original) and getattr(original, "__wrapped__", None) is None:

            def reasons(*args, _original=original, **kwargs):
                try:
                    return _original(*args, **kwargs)
                except Exception as err:
                    if type(err).__name__ == "RecompileError":
                        try:  # torch._guards is loaded: torch is compiling
                            context = sys.modules["torch._guards"].CompileContext
                            record_start(context.current_compile_id(), 2)
                        except Exception:
                            pass
                    raise

            convert_frame.get_and_maybe_log_recompilation_reasons = named_like(reasons, original)

    # Run code right after a module is imported: the finder asks the other finders for the real spec and
    # shadows exec_module on that one loader object (the module's spec and loader stay torch's own).
    after_import = {"torch": patch_torch, "torch._dynamo": patch_dynamo}

    class _AfterImport:
        def find_spec(self, name, path=None, target=None):
            hook = after_import.get(name)
            if hook is None:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    break
            else:
                return None
            loader = spec.loader
            exec_module = getattr(loader, "exec_module", None)
            if exec_module is None:
                return spec
            del after_import[name]

            def run(module):
                exec_module(module)
                try:
                    hook(module)
                except Exception:
                    pass

            try:
                loader.exec_module = run
            except Exception:
                pass
            return spec

    sys.meta_path.insert(0, _AfterImport())

    import random

    def record_random_seed(a=None, version=2):
        try:
            count("seed", {"function": "random.seed", "value": plain(a)})
        except Exception:
            pass

    random.seed = impersonate(random.seed, record_random_seed, random.__file__)

    original_excepthook = sys.excepthook

    def excepthook(kind, value, traceback):
        try:
            where = ""
            tb = traceback
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None:
                where = " (%s:%d)" % (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
            state["exception"] = text("%s: %s%s" % (kind.__name__, value, where))
            write({"e": "exception", "text": state["exception"]})
        except Exception:
            pass
        return original_excepthook(kind, value, traceback)

    sys.excepthook = excepthook

    def rank():
        value = os.environ.get("RANK")
        return int(value) if value is not None and value.isdigit() else None

    def devices():
        torch = sys.modules.get("torch")
        found = []
        try:
            cuda = getattr(torch, "cuda", None)
            if cuda is not None and cuda.is_initialized():
                for index in range(cuda.device_count()):
                    found.append("cuda:%d %s" % (index, cuda.get_device_name(index)))
        except Exception:
            pass
        return found

    def at_exit():
        note_config()
        with lock:
            totals = [[kind, key, n] for (kind, key), n in counts.items()]
        write(
            {
                "e": "exit",
                "argv": [text(a) for a in sys.argv],
                "devices": devices(),
                "counts": totals,
                "compile_starts": state["starts"],
                "compile_starts_dropped": state["starts_dropped"],
            }
        )

    write(
        {
            "e": "start",
            "pid": os.getpid(),
            "ppid": os.getppid(),
            "argv": [text(a) for a in sys.argv],
            "cwd": text(os.getcwd()),
            "rank": rank(),
            "observer": OBSERVER_VERSION,
        }
    )
    atexit.register(at_exit)


def _chain(here):
    """Run the sitecustomize this one hides (the next on sys.path), as Python would have."""
    import importlib.machinery
    import importlib.util

    others = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


if __name__ == "sitecustomize":
    _here = os.path.dirname(os.path.abspath(__file__))
    try:
        _out = os.environ.get(ENV_DIR)
        if _out and os.path.isdir(_out):
            _install(_out)
    except Exception:
        pass
    # The program sees the sys.path it would have had (PYTHONPATH keeps the entry for child processes).
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
    _chain(_here)
