#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which files clang-tidy must analyse again, and a record of those it found clean.

A file's key is a hash of everything its analysis reads: the compile command, the source, the content of
every header the build's dependency scan lists for it (ninja -t deps), the .clang-tidy configuration and
the clang-tidy version. A file whose key is recorded was analysed clean with exactly these inputs, so its
analysis would say the same again: CI skips it. Any change to the file, to any header it includes (Qt's
included), to its flags or to the checks gives a new key and a full analysis. Without ninja's dependency
log (another generator, or a file not built yet) a file is always analysed.

  tidy_cache.py pending BUILD CACHE FILE...   print the files to analyse, one a line
  tidy_cache.py record  BUILD CACHE FILE...   record these files as analysed clean
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys


def object_of(entry):
    """The -o argument of a compile command, relative to its directory."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    for i, arg in enumerate(args):
        if arg == "-o" and i + 1 < len(args):
            return args[i + 1]
    return None


def dependency_lists(build):
    """{object: [dependency paths]} from ninja's dependency log; {} without one."""
    try:
        out = subprocess.run(["ninja", "-C", build, "-t", "deps"], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    deps, current = {}, None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            target = line.split(":", 1)[0]
            current = None if "STALE" in line else deps.setdefault(target, [])
        elif current is not None:
            current.append(line.strip())
    return deps


# A file's leading licence line is left out of its hash: a comment holds no code for a check to find, so a
# file analysed clean without it is clean with it (every file gained one in one change, which would otherwise
# have sent the whole tree to clang-tidy again).
LICENCE_LINE = b"// SPDX-License-Identifier: GPL-3.0-or-later\n"


def content_hash(path, memo):
    if path not in memo:
        try:
            with open(path, "rb") as f:
                content = f.read()
            if content.startswith(LICENCE_LINE):
                content = content[len(LICENCE_LINE):]
            memo[path] = hashlib.sha256(content).hexdigest()
        except OSError:
            memo[path] = "missing"
    return memo[path]


def keys(build, files):
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = {os.path.realpath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}
    deps = dependency_lists(build)
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    with open(".clang-tidy", "rb") as f:
        config = f.read()
    memo, result = {}, {}
    for name in files:
        entry = commands.get(os.path.realpath(name))
        obj = entry and object_of(entry)
        if not obj or obj not in deps:
            result[name] = None  # nothing known about its headers: analyse it
            continue
        h = hashlib.sha256()
        h.update(version.encode() + config)
        # The command names the build folder, which is the same path in every clone (build-test).
        h.update((entry.get("command") or " ".join(entry["arguments"])).replace(os.getcwd(), ".").encode())
        h.update(content_hash(name, memo).encode())
        for dep in sorted(deps[obj]):
            path = dep if os.path.isabs(dep) else os.path.join(build, dep)
            real = os.path.realpath(path)
            # The clone's own files by their place in it (every clone has its own folder); others as they are.
            shown = os.path.relpath(real) if real.startswith(os.getcwd() + os.sep) else real
            h.update(shown.encode() + content_hash(path, memo).encode())
        result[name] = h.hexdigest()
    return result


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("pending", "record"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, build, cache, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(cache, exist_ok=True)
    for name, key in keys(build, files).items():
        stamp = key and os.path.join(cache, key)
        if mode == "pending" and not (stamp and os.path.exists(stamp)):
            print(name)
        elif mode == "record" and stamp:
            with open(stamp, "w") as f:
                f.write(name + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
