"""Worker processes that start clean: they never run the caller's ``__main__``.

Library code runs inside other people's programs: plain scripts without an
``if __name__ == "__main__":`` guard, code fed on stdin, ``python -c``, notebooks. The standard
``spawn`` and ``forkserver`` start methods re-import the parent's main module in every worker
(``multiprocessing.spawn.prepare`` runs ``_fixup_main_from_path``/``_fixup_main_from_name``
from the ``init_main_from_*`` keys of the preparation data), so a guard-less script would run
again, in full, inside each worker; ``fork`` is unsafe with threads (numba's, a Dask client's,
the caller's).

So workers here are spawned from a fresh interpreter with preparation data that carries the
parent's ``sys.path``, working directory and authentication key but *no* main module: the
child imports only what unpickling the work needs (``ruby_metric`` and the modules of the
scorer's class). A pool is checked before any result is read: every worker must start and
load the scorer, or :func:`start_pool` (or :func:`check_results`, when the first chunks were
queued behind the checks while the workers started) raises :class:`WorkerStartError` with the
reason, so a pool that cannot work never reports pairs as lost.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import os
import pickle
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import context as mp_context
from multiprocessing import process, reduction, spawn, util
from typing import Any

#: Why this worker could not get ready (set by :func:`init`, reported by :func:`ready`).
_START_ERROR: str | None = None


class WorkerStartError(RuntimeError):
    """Worker processes could not start, or could not load what they must score with."""


#: The signals a run's owner handles; workers ignore them, from their first instruction.
_RUN_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: How often a worker checks that its parent is still alive (seconds).
PARENT_CHECK_INTERVAL = 0.5


def init(parent: int | None = None) -> None:
    """Run in each worker before its first task: leave signals to the parent, import.

    Ctrl-C (SIGINT) and ``timeout``'s SIGTERM reach the whole process group; the parent
    handles them (stops submitting, keeps what was written, then kills its workers), so
    workers ignore both: they never die with a traceback of their own, and a pool never
    looks broken because of a signal meant for the run. A worker whose parent is gone (killed
    with SIGKILL) exits by itself within :data:`PARENT_CHECK_INTERVAL`. A failure is kept for
    :func:`ready` to report, instead of killing the worker with a traceback.

    Parameters
    ----------
    parent : the parent's process id (default: this process's parent now).
    """
    global _START_ERROR
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        # spawned with both blocked (see _CleanSpawnPopen): a signal sent while this
        # interpreter started is pending, and now discarded
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _RUN_SIGNALS)
    watched = parent if parent is not None else os.getppid()
    threading.Thread(target=_exit_with_parent, args=(watched,), daemon=True).start()
    try:
        # The structure packages; the scorer's own modules load when ready() unpickles the
        # payload, and grammars and kernels load with the first pair that uses them.
        import graphs  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - reported to the parent by ready()
        _START_ERROR = f"{type(exc).__name__}: {exc}"


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_INTERVAL)
    os._exit(1)


@functools.lru_cache(maxsize=4)
def load_payload(blob: bytes) -> Any:
    """``pickle.loads(blob)``, once per distinct payload in this worker process.

    Tasks carry the scorer as pickled bytes; a worker unpickles each distinct payload once
    and reuses it for every later chunk (a run sends the same bytes with every chunk).
    """
    return pickle.loads(blob)  # noqa: S301 - our own bytes, from the parent process


def ready(payload: bytes) -> str | None:
    """The start-up check: ``None`` when this worker is ready and can load ``payload``.

    Parameters
    ----------
    payload : the pickled objects every task will carry (the scorer and its CrystalBLEUs).

    Returns
    -------
    ``None``, or a one-line reason why this worker cannot score.
    """
    if _START_ERROR is not None:
        return f"a worker failed to start ({_START_ERROR})"
    try:
        load_payload(payload)
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        hint = ""
        if "__main__" in str(exc) or "__mp_main__" in str(exc):
            hint = (
                ": a class defined in the main script cannot be sent to worker processes; "
                "define it in an importable module"
            )
        return f"a worker cannot load the scorer ({type(exc).__name__}: {exc}){hint}"
    # Everything loaded so far (the imports, the scorer) lives as long as the worker: kept
    # out of the cyclic collector's full passes, which would otherwise traverse it again
    # and again while pairs are scored.
    gc.freeze()
    return None


def start_pool(
    workers: int, payload: Any, context: mp_context.BaseContext | None = None
) -> ProcessPoolExecutor:
    """A pool of ``workers`` clean processes, each checked to be ready to score ``payload``.

    Parameters
    ----------
    workers : number of processes.
    payload : the objects every task will carry (or their pickled bytes); each worker must
        be able to unpickle them.
    context : the multiprocessing context (default :func:`worker_context`); its
        ``processes`` lists the workers it started.

    Raises
    ------
    WorkerStartError : the pool cannot be created, a worker dies at start-up, or a worker
        cannot load ``payload``. The pool is shut down first.
    """
    blob = payload if isinstance(payload, bytes) else pickle.dumps(payload)
    context = context or worker_context()
    pool = launch_pool(workers, context)
    try:
        check_pool(pool, workers, blob)
    except BaseException:
        abandon_pool(pool, context)
        raise
    return pool


def launch_pool(workers: int, context: mp_context.BaseContext) -> ProcessPoolExecutor:
    """A pool of ``workers`` clean processes in ``context``, not yet checked: its processes
    start with the first tasks submitted (:func:`submit_checks`).

    Raises
    ------
    WorkerStartError : the pool cannot be created (no semaphores, no ``/dev/shm``, ...).
    """
    try:
        return ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=init, initargs=(os.getpid(),)
        )
    except (OSError, ImportError) as exc:
        raise WorkerStartError(f"cannot create worker processes ({exc})") from exc


def abandon_pool(pool: ProcessPoolExecutor, context: Any, timeout: float = 3.0) -> None:
    """Kill the workers of a pool (started in ``context``) at once, never waiting for a task
    or for a worker still starting, and release the pool (waited for at most ``timeout``
    seconds: see :func:`release_pools`)."""
    abandon_pools([pool], getattr(context, "processes", []), timeout)


def abandon_pools(
    pools: list[ProcessPoolExecutor], processes: list[Any], timeout: float = 3.0
) -> None:
    """Kill ``processes`` (the workers of ``pools``) at once, all of them before any pool is
    released, and release the pools (waited for at most ``timeout`` seconds in all)."""
    kill_processes(processes)
    # their threads and queues released now (bounded wait), so their semaphores are not
    # left to the resource tracker when the process exits at once after a signal
    release_pools(pools, timeout)


def release_pools(pools: list[ProcessPoolExecutor], timeout: float = 3.0) -> None:
    """Shut down pools whose workers were killed: their queues, semaphores and threads are
    released by helper threads, one per pool, side by side, all waited for at most
    ``timeout`` seconds in all (never a hang).

    The release itself takes milliseconds on an idle machine; the bound is seconds because
    on two busy cores one second was sometimes too short, and a process that exits first
    leaves its semaphores to the resource tracker's "leaked" warning.
    """
    closers = [
        threading.Thread(target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True},
                         name="ruby-metric-pool-close", daemon=True)
        for pool in pools
    ]
    for closer in closers:
        closer.start()
    deadline = time.monotonic() + timeout
    for closer in closers:
        closer.join(max(0.0, deadline - time.monotonic()))


def check_pool(pool: ProcessPoolExecutor, workers: int, blob: bytes) -> None:
    """Check that the pool's workers are ready to score the pickled payload ``blob`` (a
    barrier: nothing else is queued meanwhile).

    Raises
    ------
    WorkerStartError : a worker died at start-up or cannot load ``blob``.
    """
    check_results(submit_checks(pool, workers, blob))


def submit_checks(pool: ProcessPoolExecutor, workers: int, blob: bytes) -> list[Future]:
    """Queue the start-up check of :func:`ready` once per worker (each submit starts another
    process while none is idle); :func:`check_results` reads them.

    The checks go first in the pool's queue: tasks submitted after them start no sooner, so
    a caller can queue its first chunks at once and read the checks before their results.

    Raises
    ------
    WorkerStartError : the pool broke already (a worker died at start-up).
    """
    try:
        return [pool.submit(ready, blob) for _ in range(workers)]
    except (BrokenProcessPool, OSError) as exc:
        raise _died_at_start(exc) from exc


def check_results(checks: list[Future], *, chunks_queued: bool = False) -> None:
    """Wait for the start-up checks of :func:`submit_checks`.

    Parameters
    ----------
    checks : the futures :func:`submit_checks` returned.
    chunks_queued : work was queued behind the checks. A worker that dies on a chunk breaks
        the whole pool, checks still running on the other workers included: once one
        worker has passed its check, a broken pool is then the chunks' to recover from
        (the pair that killed it is found), not a start-up failure. A pool whose every
        worker dies before passing is one.

    Raises
    ------
    WorkerStartError : a worker cannot load the payload, or the workers died at start-up.
    """
    problems: list[str] = []
    broken: BaseException | None = None
    passed = 0
    for check in checks:
        try:
            problem = check.result()
        except (BrokenProcessPool, OSError) as exc:
            broken = broken or exc
            continue
        if problem:
            problems.append(problem)
        else:
            passed += 1
    if problems:
        raise WorkerStartError(problems[0])
    if broken is not None and not (chunks_queued and passed):
        raise _died_at_start(broken) from broken


def _died_at_start(exc: BaseException) -> WorkerStartError:
    return WorkerStartError(
        f"worker processes died at start-up ({exc}); their error output is above"
    )


def kill_processes(processes: list[Any], timeout: float = 1.0) -> None:
    """Kill worker processes at once (SIGKILL: they ignore SIGINT and SIGTERM) and reap them.

    Parameters
    ----------
    processes : :class:`multiprocessing.Process` objects (those already gone are skipped).
    timeout : seconds to wait for each to be reaped.
    """
    orphans = []
    for proc in processes:
        try:
            if proc.is_alive():
                proc.kill()
            elif proc.pid is None and getattr(proc, "spawned_pid", None):
                # started, but an interrupt came before multiprocessing recorded it
                os.kill(proc.spawned_pid, signal.SIGKILL)
                orphans.append(proc.spawned_pid)
        except (OSError, ValueError, AssertionError):
            pass  # already gone, or closed
    for pid in orphans:
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)
    deadline = time.monotonic() + timeout
    for proc in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            proc.join(max(0.0, deadline - time.monotonic()))


def worker_context() -> mp_context.BaseContext:
    """The multiprocessing context of the workers: spawn, without the caller's main module.

    On Windows, plain ``spawn`` (which re-imports the main module there, as Python documents).
    """
    if sys.platform == "win32":  # pragma: no cover - the project's CI is POSIX
        return mp_context.SpawnContext()
    return _CleanSpawnContext()  # a new one per pool: it records that pool's processes


if sys.platform != "win32":
    from multiprocessing import popen_spawn_posix

    class _CleanSpawnPopen(popen_spawn_posix.Popen):
        """``popen_spawn_posix.Popen`` with preparation data that names no main module."""

        def _launch(self, process_obj: Any) -> None:
            # The body of popen_spawn_posix.Popen._launch (CPython 3.8-3.13), with
            # clean_preparation_data() in place of spawn.get_preparation_data().
            from multiprocessing import resource_tracker

            tracker_fd = resource_tracker.getfd()
            self._fds.append(tracker_fd)
            prep_data = clean_preparation_data(process_obj._name)
            fp = io.BytesIO()
            mp_context.set_spawning_popen(self)
            try:
                reduction.dump(prep_data, fp)
                reduction.dump(process_obj, fp)
            finally:
                mp_context.set_spawning_popen(None)

            parent_r = child_w = child_r = parent_w = None
            try:
                parent_r, child_w = os.pipe()
                child_r, parent_w = os.pipe()
                cmd = spawn.get_command_line(tracker_fd=tracker_fd, pipe_handle=child_r)
                self._fds.extend([child_r, child_w])
                self.sentinel = parent_r
                self.pid = _spawn_and_send(
                    cmd, self._fds, parent_w, fp.getbuffer(), process_obj
                )
            finally:
                fds_to_close = [fd for fd in (parent_r, parent_w) if fd is not None]
                self.finalizer = util.Finalize(self, util.close_fds, fds_to_close)
                for fd in (child_r, child_w):
                    if fd is not None:
                        os.close(fd)

    def _spawn_and_send(
        cmd: list[str], fds: list[int], pipe: int, data: Any, process_obj: Any
    ) -> int:
        """Start the child and write its preparation data, whole, whatever signals arrive.

        Python runs signal handlers in the main thread only, between bytecodes: so the child
        is started and fed by a helper thread, which an interrupt cannot cut short (a child
        left reading a half-written pipe dies with a traceback). The helper blocks SIGINT
        and SIGTERM, and the child inherits that mask: a Ctrl-C while it imports cannot kill
        it with a fatal error (init() ignores both, then unblocks them; multiprocessing's
        resource tracker starts the same way). If the caller is interrupted meanwhile, the
        child is killed once it is fed (the pool never learns of it), and the interrupt
        goes on. The child's pid is noted on ``process_obj.spawned_pid`` at once, so
        :func:`kill_processes` finds a child whose start an interrupt cut short later.
        """
        spawned: list[int] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                signal.pthread_sigmask(signal.SIG_BLOCK, _RUN_SIGNALS)
                spawned.append(util.spawnv_passfds(spawn.get_executable(), cmd, fds))
                process_obj.spawned_pid = spawned[-1]
                with open(pipe, "wb", closefd=False) as f:
                    f.write(data)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                failed.append(exc)

        helper = threading.Thread(target=run, name="ruby-metric-spawn", daemon=True)
        try:
            helper.start()  # inside the try: start() itself waits, and can be interrupted
            helper.join()
        except BaseException:
            if helper.ident is not None:
                helper.join()  # the child gets its data before the interrupt goes on
            for pid in spawned:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
            raise
        if failed:
            raise failed[0]
        return spawned[0]

    class _CleanSpawnProcess(mp_context.SpawnProcess):
        _start_method = "spawn"
        spawned_pid: int | None = None  # set as soon as the child exists (see above)

        @staticmethod
        def _Popen(process_obj: Any) -> _CleanSpawnPopen:  # noqa: N802 - multiprocessing's name
            return _CleanSpawnPopen(process_obj)

    class _CleanSpawnContext(mp_context.SpawnContext):
        """The clean spawn context; it records the processes it creates (``processes``), so
        a pool can kill exactly its own workers."""

        _name = "spawn"

        def __init__(self) -> None:
            super().__init__()
            self.processes: list[_CleanSpawnProcess] = []

        def Process(self, *args: Any, **kwargs: Any) -> _CleanSpawnProcess:  # noqa: N802
            proc = _CleanSpawnProcess(*args, **kwargs)
            self.processes.append(proc)
            return proc


def clean_preparation_data(name: str) -> dict[str, Any]:
    """What a spawned worker needs from its parent, without the parent's main module.

    Like :func:`multiprocessing.spawn.get_preparation_data`, minus ``init_main_from_name`` and
    ``init_main_from_path`` (the keys that make the child re-run ``__main__``) and minus
    ``start_method`` (reading it would fix the caller's default start method as a side
    effect).
    """
    sys_path = sys.path.copy()
    if "" in sys_path:
        sys_path[sys_path.index("")] = process.ORIGINAL_DIR
    data: dict[str, Any] = {
        "name": name,
        "authkey": process.current_process().authkey,
        "log_to_stderr": util._log_to_stderr,
        "sys_path": sys_path,
        "sys_argv": sys.argv,
        "orig_dir": process.ORIGINAL_DIR,
        "dir": os.getcwd(),
    }
    if util._logger is not None:
        data["log_level"] = util._logger.getEffectiveLevel()
    return data
