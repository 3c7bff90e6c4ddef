#!/usr/bin/env python3
"""Fails unless builtins.bc defines every mangled builtin a user kernel can call.

User kernels are compiled against Clang's declarations of the OpenCL C
builtins and link builtins.bc with LinkOnlyNeeded, so a declared overload the
library lacks only shows up as an unresolved symbol when some kernel calls it.
This check asks Clang itself for the declarations (a JSON AST dump of
opencl-c.h, which carries each declaration's mangled name) for every OpenCL C
version we accept, keeps the names listed in the given name files, and looks
each mangled name up among the symbols builtins.bc defines (llvm-nm).

A name file lists one builtin per line; '#' starts a comment. 'name:fp' keeps
only the float/double overloads (e.g. clamp/max/min, whose integer overloads
belong to the integer family), 'name:int' only the others; one name may be
listed with both. '@symbol' names a plain symbol that must be defined: for
builtins Clang lowers to fixed runtime calls (to_global -> __to_global).
"""
import argparse
import json
import re
import subprocess
import sys

# The first parameter's type of a floating-point overload: f, d, Dh (half,
# declared when --cl-ext enables cl_khr_fp16), Dv<n>_f, Dv<n>_d, Dv<n>_Dh.
FLOATING_FIRST_PARAM = re.compile(r"^(?:[fd]|Dh|Dv\d+_(?:[fd]|Dh))")


def read_names(paths):
    """Returns ({name: set of qualifiers}, [required plain symbols])."""
    names, symbols = {}, []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                if line.startswith("@"):
                    symbols.append(line[1:])
                    continue
                name, _, qualifier = line.partition(":")
                names.setdefault(name, set()).add(qualifier)
    return names, symbols


def wanted(qualifiers, name, mangled):
    if "" in qualifiers:
        return True
    floating = bool(FLOATING_FIRST_PARAM.match(mangled_parameters(name, mangled)))
    return ("fp" in qualifiers and floating) or ("int" in qualifiers and not floating)


def declared_functions(clang, std, ext):
    """Yields (name, mangledName) of every function opencl-c.h declares."""
    cmd = [clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=" + std,
           "-finclude-default-header", ext, "-ast-dump=json", "-x", "cl", "/dev/null"]
    # The full header declares image builtins even where images are disabled,
    # which Clang reports as errors; the rest of the dump is still complete.
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    if not out:
        sys.exit("no AST dump from: " + " ".join(cmd))
    for node in json.loads(out)["inner"]:
        if node.get("kind") == "FunctionDecl" and "mangledName" in node:
            yield node["name"], node["mangledName"]


def mangled_parameters(name, mangled):
    prefix = "_Z%d%s" % (len(name), name)
    return mangled[len(prefix):] if mangled.startswith(prefix) else mangled


def defined_symbols(nm, bitcode):
    out = subprocess.run([nm, "--defined-only", "-j", bitcode], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return set(out.split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang", required=True)
    parser.add_argument("--nm", required=True)
    parser.add_argument("--bitcode", required=True)
    parser.add_argument("--cl-ext", required=True, help="-cl-ext=... as given to Clang")
    parser.add_argument("--std", action="append", default=[], help="e.g. CL1.2, CL3.0")
    parser.add_argument("names", nargs="+", help="files listing builtin names")
    args = parser.parse_args()

    names, symbols = read_names(args.names)
    defined = defined_symbols(args.nm, args.bitcode)
    missing, checked, seen = {}, set(), set()
    for symbol in symbols:
        checked.add(symbol)
        if symbol not in defined:
            missing.setdefault(symbol, []).append("symbol")
    for std in args.std or ["CL1.2", "CL3.0"]:
        for name, mangled in declared_functions(args.clang, std, args.cl_ext):
            if name not in names:
                continue
            seen.add(name)
            if not wanted(names[name], name, mangled):
                continue
            checked.add(mangled)
            if mangled not in defined:
                missing.setdefault(mangled, []).append(std)
    for mangled, stds in sorted(missing.items()):
        print("missing (%s): %s" % (", ".join(stds), mangled))
    unknown = sorted(set(names) - seen)
    for name in unknown:
        print("not declared by Clang (typo in a name file?): %s" % name)
    print("%d overloads checked, %d missing" % (len(checked), len(missing)))
    return 1 if missing or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
