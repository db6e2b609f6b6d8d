#!/usr/bin/env python3
"""Include directions under src/, as the libraries' links allow them.

Every `#include "area/..."` of a file under src/ must name an area the file's own library links,
directly or through others (target_link_libraries in src/CMakeLists.txt, src/server/CMakeLists.txt,
src/cli/CMakeLists.txt). An area is a folder of src/ (anchor, verify, engine, decode, ...) and, in
src/server, a layer (server/http, server/runtime, server/api, server/app), each its own library. So
an include from a lower area to a higher one (verify -> decode, api -> app) fails, and so does one
between areas that do not depend on each other (engine -> anchor, http -> runtime).

src/cli and src/gateway, on top, may include only the public header of each server layer.

Usage: include_direction_test.py SRC_DIR
"""
import pathlib
import re
import sys

# The library of each area; sfcl_server is the aggregate of the server's layers.
LIBRARIES = {
    "sfcl_util": "util",
    "sfcl_anchor": "anchor",
    "sfcl_verify": "verify",
    "sfcl_engine": "engine",
    "sfcl_decode": "decode",
    "sfcl_metrics": "metrics",
    "sfcl_report": "report",
    "sfcl_server_http": "server/http",
    "sfcl_server_runtime": "server/runtime",
    "sfcl_server_api": "server/api",
    "sfcl_server_app": "server/app",
    "sfcl_server": None,
    "sfcl_gateway": "gateway",
    "sfcl_cli": "cli",
}
PUBLIC_SERVER_HEADERS = {
    "server/http/http.h",
    "server/runtime/runtime.h",
    "server/api/api.h",
    "server/app/app.h",
}
TOP = {"cli", "gateway"}  # may include only PUBLIC_SERVER_HEADERS of the server
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LINK = re.compile(r"target_link_libraries\(\s*(\w+)([^)]*)\)", re.S)


def links(src: pathlib.Path) -> dict[str, set[str]]:
    """Library -> the sfcl libraries it links directly."""
    out: dict[str, set[str]] = {}
    for cmake in sorted(src.rglob("CMakeLists.txt")):
        text = re.sub(r"#[^\n]*", "", cmake.read_text())
        for lib, args in LINK.findall(text):
            out.setdefault(lib, set()).update(a for a in args.split() if a in LIBRARIES)
    return out


def allowed_areas(src: pathlib.Path) -> dict[str, set[str]]:
    """Area -> the areas its files may include: its own and those its library reaches."""
    direct = links(src)
    allowed = {}
    for lib, area in LIBRARIES.items():
        if area is None:
            continue
        seen, todo = set(), [lib]
        while todo:
            for dep in direct.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        reach = {LIBRARIES[d] for d in seen if LIBRARIES[d] is not None}
        if lib == "sfcl_util":
            reach = set()
        allowed[area] = reach | {area}
    return allowed


def area_of(path: str) -> str | None:
    """The area of a path relative to src/ (a file or an include)."""
    parts = path.split("/")
    if len(parts) < 2:
        return None
    if parts[0] == "server":
        return "server/" + parts[1] if len(parts) >= 3 else "server"
    return parts[0]


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src").resolve()
    allowed = allowed_areas(src)
    missing = [a for a in ("anchor", "verify", "decode", "server/api", "server/app", "gateway") if len(allowed[a]) < 2]
    if missing:
        print(f"no links found for {missing}: is {src} the source tree?")
        return 1
    errors = []
    files = sorted(p for p in src.rglob("*") if p.suffix in (".h", ".hpp", ".cpp", ".cc"))
    for f in files:
        rel = f.relative_to(src).as_posix()
        here = area_of(rel)
        if here == "server":
            errors.append(f"{rel}: a server file outside the layers (http, runtime, api, app)")
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            there = area_of(inc)
            if there is None or not (src / inc).is_file() and there not in allowed:
                continue  # a system or third-party header (llama.h, chat.h, ...)
            if there not in allowed:
                errors.append(f'{rel}:{n}: includes "{inc}", which is in no area')
            elif there not in allowed.get(here, {here}):
                errors.append(f'{rel}:{n}: {here} includes "{inc}" from {there}, which it does not link '
                              f"(it may include {', '.join(sorted(allowed[here] - {here})) or 'no other area'})")
            elif here in TOP and there.startswith("server/") and inc not in PUBLIC_SERVER_HEADERS:
                errors.append(f'{rel}:{n}: {here} includes "{inc}"; outside the server it may include only '
                              f"{', '.join(sorted(PUBLIC_SERVER_HEADERS))}")
    for e in errors:
        print(e)
    print(f"{len(files)} files, {len(errors)} include(s) against the direction")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
