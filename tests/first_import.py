"""Import each of the project's modules first, each in its own process.

Usage: ``python tests/first_import.py LIBRARIES -- MODULES``.

Starting one interpreter per module costs seconds each for the modules that load the CDK (its jsii
kernel loads aws-cdk-lib) or the engine's stack. Here one interpreter loads the third-party libraries
named in LIBS once, then forks a child per module: each child imports its module before any other module
of the project, which is what the check is about, and a third-party library's load time is paid once.

Children run one at a time, each within a bound: the CDK's jsii kernel is one process behind one pipe,
which two children writing at once would garble. A child leaves with ``os._exit``, so no exit handler of
the parent (jsii's stops its kernel) runs in it. Prints one line per module that failed: its name, a tab,
the last line of its error.
"""

from __future__ import annotations

import importlib
import os
import select
import signal
import sys
import traceback
import warnings

CHILD_SECONDS = 120  # a hang guard, not a claim about speed
# The only other thread is jsii's reader of its kernel's stderr, which holds nothing a child needs.
warnings.filterwarnings("ignore", r"This process .* is multi-threaded", DeprecationWarning)


def preload(libraries: list[str]) -> None:
    for library in libraries:
        try:
            importlib.import_module(library)
        except Exception:  # noqa: BLE001 - a library that does not load alone is imported by its module instead
            pass


def first_import(module: str) -> str | None:
    """None when ``module`` imports in a child forked from here; else the last line of its error."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        try:
            importlib.import_module(module)
            code, report = 0, b""
        except BaseException:  # noqa: BLE001 - whatever stops the import is the finding
            code, report = 1, traceback.format_exc().strip().splitlines()[-1].encode()
        os.write(write_end, report[:4000])
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        if not select.select([pipe], [], [], CHILD_SECONDS)[0]:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            return f"the import did not end within {CHILD_SECONDS} s"
        report = pipe.read()
    _, status = os.waitpid(child, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return report.decode(errors="replace") or f"the child exited with status {os.waitstatus_to_exitcode(status)}"


def main(arguments: list[str]) -> None:
    sys.path[0] = os.getcwd()  # as ``python -c`` would have it: the CDK app imports from the repository root
    split = arguments.index("--")
    preload(arguments[:split])
    project = {module.split(".")[0] for module in arguments[split + 1 :]}
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in project)
    if loaded:  # a library that imports the project would make the check meaningless
        print(f"(preload)\tthe libraries imported project modules: {loaded}")
        return
    for module in arguments[split + 1 :]:
        error = first_import(module)
        if error is not None:
            print(f"{module}\t{error}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
