#!/usr/bin/env python3
"""The model's floors (docs/LAYOUT.md): no file of a floor includes a header
of a floor above it.

The floors and what each may include come from model/CMakeLists.txt: each
floor is a folder of model/ with its own library (its folder is the
library's PUBLIC include directory), and a floor may include its own folder
and the floors its library links, directly or through them.  The build
already refuses a .cpp that reaches up (the folder is not on its include
path); this test also reads the headers, which only their includers
compile, relative includes ("../host/worker.hpp"), which the include path
does not stop, and angle-bracket spellings of the model's headers.  It also
checks that the links go one way (no floor links one above it) and that
every source of model/ sits in a floor.

Before the real tree it runs itself on a copy with upward includes
planted, and fails unless it reports each of them and nothing else.

usage: floors_test.py SOURCE_DIR"""
import os
import re
import shutil
import sys
import tempfile

SOURCES = (".cpp", ".hpp", ".c", ".h")
NOT_FLOORS = {"tests", "bench"}  # folders of model/ that are no floor
# Outside model/, the one thing a floor may include: the plugin ABI.
ABI_DIR = os.path.join("plugins", "include")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def floors_of(cmake_text):
    """{floor folder: library}, {library: [floor libraries it links]}."""
    folder_of = {}
    for lib, d in re.findall(r"target_include_directories\((niov_\w+)\s+PUBLIC\s+([^\s)]+)\)", cmake_text):
        folder_of[lib] = d.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
    links = {}
    for lib, rest in re.findall(r"target_link_libraries\((niov_\w+)\s+PUBLIC\s+([^)]*)\)", cmake_text):
        if lib in folder_of:
            deps = rest.split("PRIVATE")[0].split()
            links[lib] = [d for d in deps if d in folder_of]
    libs = {f: lib for lib, f in folder_of.items()}
    return libs, {lib: links.get(lib, []) for lib in folder_of}


def order(links):
    """The libraries in layers, bottom first, or None when the links have a
    cycle."""
    done, out = set(), []
    while len(done) < len(links):
        ready = sorted(lib for lib in links if lib not in done and all(d in done for d in links[lib]))
        if not ready:
            return None
        done.update(ready)
        out.append(ready)
    return out


def below(lib, links):
    seen, todo = set(), list(links[lib])
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo.extend(links[d])
    return seen


def check(root):
    """Every problem found under @root, one line each, and what was read."""
    model = os.path.join(root, "model")
    libs, links = floors_of(open(os.path.join(model, "CMakeLists.txt")).read())
    bad = []
    if not libs:
        return ["model/CMakeLists.txt names no floor library"], 0, 0
    if order(links) is None:
        bad.append("the floors' libraries link in a cycle: " +
                   ", ".join(f"{lib} -> {' '.join(links[lib])}" for lib in sorted(links)))
        return bad, 0, 0
    floor_of_lib = {lib: f for f, lib in libs.items()}
    allowed = {f: {f} | {floor_of_lib[d] for d in below(lib, links)} for f, lib in libs.items()}

    for entry in sorted(os.listdir(model)):
        p = os.path.join(model, entry)
        if os.path.isdir(p) and entry not in libs and entry not in NOT_FLOORS:
            bad.append(f"model/{entry}/ is no floor (no library in model/CMakeLists.txt)")
        elif os.path.isfile(p) and entry.endswith(SOURCES):
            bad.append(f"model/{entry} sits in no floor")

    def resolve(src, quote, name):
        """The model or ABI file @name names from @src, else None."""
        if quote == '"':
            near = os.path.normpath(os.path.join(os.path.dirname(src), name))
            if os.path.isfile(near):
                return near
        found = [os.path.join(model, f, name) for f in libs if os.path.isfile(os.path.join(model, f, name))]
        return os.path.normpath(found[0]) if found else None

    files = includes = 0
    for floor in sorted(libs):
        for d, _, names in os.walk(os.path.join(model, floor)):
            for n in sorted(names):
                if not n.endswith(SOURCES):
                    continue
                src = os.path.join(d, n)
                rel = os.path.relpath(src, root)
                files += 1
                text = open(src, errors="replace").read()
                for m in INCLUDE.finditer(text):
                    quote, name = m.group(1), m.group(2)
                    line = text.count("\n", 0, m.start()) + 1
                    target = resolve(src, quote, name)
                    if target is None:
                        if quote == '"':
                            bad.append(f"{rel}:{line}: includes \"{name}\", which is in no floor of the model")
                        continue  # <...> of no model file: a system or library header
                    includes += 1
                    trel = os.path.relpath(target, root)
                    if trel.startswith(ABI_DIR + os.sep):
                        continue
                    parts = trel.split(os.sep)
                    if parts[0] != "model" or len(parts) < 3 or parts[1] not in libs:
                        bad.append(f"{rel}:{line}: includes {trel}, outside the model's floors")
                    elif parts[1] not in allowed[floor]:
                        bad.append(f"{rel}:{line}: the {floor} floor includes {trel} of the {parts[1]} floor above it")
    return bad, files, includes


def self_test(root):
    """Plant upward includes in a copy; each must be reported, nothing else."""
    tmp = tempfile.mkdtemp(prefix="floors_test.")
    try:
        shutil.copytree(os.path.join(root, "model"), os.path.join(tmp, "model"),
                        ignore=shutil.ignore_patterns("tests", "bench"))
        shutil.copytree(os.path.join(root, ABI_DIR), os.path.join(tmp, ABI_DIR))

        def plant(path, text):
            with open(os.path.join(tmp, path), "a") as f:
                f.write(text)

        expect = []
        # A rule file including the worker, as the build would see it.
        plant("model/rules/word.hpp", '#include "worker.hpp"\n')
        expect.append("model/rules/word.hpp:.*the rules floor includes model/host/worker.hpp")
        # A relative path the include directories do not stop.
        plant("model/datapath/impl.hpp", '#include "../check/report.hpp"\n')
        expect.append("model/datapath/impl.hpp:.*the datapath floor includes model/check/report.hpp")
        # Angle brackets.
        plant("model/scenario/scenario.cpp", "#include <explain.hpp>\n")
        expect.append("model/scenario/scenario.cpp:.*the scenario floor includes model/datapath/explain.hpp")
        # A header from outside the model.
        plant("model/host/worker.cpp", '#include "../../cli/usage.hpp"\n')
        expect.append('model/host/worker.cpp:.*includes "../../cli/usage.hpp", which is in no floor')
        # A source in no floor.
        plant("model/stray.cpp", "")
        expect.append("model/stray.cpp sits in no floor")
        got, _, _ = check(tmp)
        problems = [f"the planted '{e}' was not reported" for e in expect
                    if not any(re.search(e, g) for g in got)]
        problems += [f"reported what was not planted: {g}" for g in got
                     if not any(re.search(e, g) for e in expect)]

        # An upward link: the floors' libraries in a cycle.
        cm = os.path.join(tmp, "model", "CMakeLists.txt")
        text = open(cm).read()
        text = text.replace("target_link_libraries(niov_rules PUBLIC", "target_link_libraries(niov_rules PUBLIC niov_check", 1)
        open(cm, "w").write(text)
        got, _, _ = check(tmp)
        if not any("cycle" in g for g in got):
            problems.append("a link from niov_rules up to niov_check was not reported")
        return problems, len(expect) + 1
    finally:
        shutil.rmtree(tmp)


def main():
    root = os.path.abspath(sys.argv[1])
    problems, planted = self_test(root)
    for p in problems:
        print("FAIL (self-test): " + p)
    bad, files, includes = check(root)
    for b in bad:
        print("FAIL: " + b)
    if problems or bad:
        return 1
    libs, links = floors_of(open(os.path.join(root, "model", "CMakeLists.txt")).read())
    print(f"floors_test: {planted} planted violations reported; "
          f"{len(libs)} floors ({' < '.join(' '.join(layer) for layer in order(links))}), {files} files, "
          f"{includes} includes of the model, none upward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
