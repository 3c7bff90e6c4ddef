"""Reading the runner's input files: subsets (suites, `types` groups,
`pieces` lines), expectations and known CTS faults; choosing the suites and
pieces a command line asks for."""

import dataclasses
import os
import shlex

from .model import SPLIT_AXES, SUBSET_DIR, Piece, SuiteSpec


TYPE_GROUPS = {}  # name -> channel types, from the subset's `types` lines


def parse_subset_line(line, where):
    """`name  binary  options  args...`; options is `-` or a comma list of
    `timeout=SECONDS`, `serial` (the suite must run alone: it times things
    or uses every core itself) and `split=AXIS` (its pieces may also filter
    by the values of a SPLIT_AXES axis)."""
    fields = line.split(None, 3)
    if len(fields) < 3:
        raise SystemExit(f'{where}: want "name binary options [args...]", got: {line}')
    name, binary, options = fields[:3]
    args = shlex.split(fields[3]) if len(fields) > 3 else []
    spec = SuiteSpec(name, binary, args)
    for option in ([] if options == '-' else options.split(',')):
        if option == 'serial':
            spec.serial = True
        elif option.startswith('timeout=') and option[8:].isdigit():
            spec.timeout_s = int(option[8:])
        elif option.startswith('split=') and option[6:] in SPLIT_AXES:
            spec.split = option[6:]
        else:
            raise SystemExit(f'{where}: unknown option "{option}"')
    return spec


def read_lines(path):
    """Yields (where, text) for each line that is not blank or a # comment."""
    with open(path, encoding='utf-8') as f:
        for number, raw in enumerate(f, 1):
            text = raw.split('#', 1)[0].strip()
            if text:
                yield f'{path}:{number}', text


def subset_path(name_or_path):
    if os.path.sep in name_or_path or name_or_path.endswith('.txt'):
        return name_or_path
    return os.path.join(SUBSET_DIR, name_or_path + '.txt')


def parse_piece(text, groups, where):
    """`SUBTESTS[:TYPES]`, comma lists; a name of a `types` line stands for
    its channel types."""
    subtests, _, filters = text.partition(':')
    types = []
    for name in filter(None, filters.split(',')):
        types += groups.get(name, [name])
    piece = Piece(tuple(filter(None, subtests.split(','))), tuple(types))
    if not piece.subtests:
        raise SystemExit(f'{where}: a piece names no sub-test: {text}')
    return piece


def read_subset(path, including=(), groups=TYPE_GROUPS):
    """The suites of a subset file; `include NAME` pulls in another subset,
    `types NAME TYPE...` names a group of channel types and `pieces SUITE
    PIECE...` says how --in-pieces splits a suite."""
    if not os.path.isfile(path):
        raise SystemExit(f'no subset file {path}')
    if os.path.abspath(path) in including:
        raise SystemExit(f'{path} includes itself')
    specs = []
    for where, text in read_lines(path):
        if text.startswith('include '):
            inner = subset_path(text.split(None, 1)[1])
            if not os.path.isabs(inner) and os.path.sep in inner:
                inner = os.path.join(os.path.dirname(path), inner)
            specs += read_subset(inner, including + (os.path.abspath(path),), groups)
        elif text.startswith('types '):
            name, *types = text.split()[1:]
            groups[name] = types
        elif text.startswith('pieces '):
            name, *pieces = text.split()[1:]
            owner = [s for s in specs if s.name == name]
            if not owner or not pieces:
                raise SystemExit(f'{where}: want "pieces SUITE PIECE..." after the suite\'s line')
            owner[-1].pieces = tuple(parse_piece(p, groups, where) for p in pieces)
        else:
            specs.append(parse_subset_line(text, where))
    return specs


def load_subset(name_or_path):
    path = subset_path(name_or_path)
    specs = read_subset(path)
    names = [s.name for s in specs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SystemExit(f'{path}: suite names must be unique: {", ".join(duplicates)}')
    return path, specs


def load_expectations(path):
    """The suites expected to pass; a missing file expects nothing."""
    if not os.path.isfile(path):
        return set()
    return {text.split()[0] for _, text in read_lines(path)}


def load_known_cts_issues(path):
    """(suite, sub-test) -> the upstream report of a fault of the CTS itself
    that can fail that sub-test. Reports cite it next to the failure; the
    failure still counts."""
    known = {}
    if os.path.isfile(path):
        for where, text in read_lines(path):
            fields = text.split(None, 2)
            if len(fields) < 3:
                raise SystemExit(f'{where}: want "suite sub-test url", got: {text}')
            known[(fields[0], fields[1])] = fields[2]
    return known


def choose_suites(specs, wanted, subset_path, in_pieces=False):
    """The suites --suite names, in the subset's order; `NAME:SUBTESTS` or
    `NAME:SUBTESTS:TYPES` (comma lists) names a piece of a suite. With
    in_pieces, a suite chosen whole that has a `pieces` line is run as those
    pieces instead."""
    by_name, chosen = {s.name: s for s in specs}, {}
    for want in wanted:
        name, _, rest = want.partition(':')
        if name not in by_name:
            raise SystemExit(f'not in {subset_path}: {name}')
        if not rest:
            chosen.setdefault(name, []).append(by_name[name])
            continue
        piece = parse_piece(rest, TYPE_GROUPS, f'--suite {want}')
        chosen.setdefault(name, []).append(dataclasses.replace(by_name[name], piece=piece))
    for name, runs in chosen.items():
        if len(runs) > 1 and any(r.piece is None for r in runs):
            raise SystemExit(f'--suite {name}: the whole suite and a piece of it')
    runs = [r for s in specs if not wanted or s.name in chosen
            for r in chosen.get(s.name, [s])]
    if in_pieces:
        runs = [p for r in runs for p in
                ([dataclasses.replace(r, piece=piece) for piece in r.pieces]
                 if r.piece is None and r.pieces else [r])]
    return runs
