"""Putting results back together: the pieces of a suite into the suite, and
the summary.json files of a subset's parts into one run."""

import dataclasses
import json
import os

from .model import REPO_ROOT, SPLIT_AXES, Piece, SubTest, SuiteResult, combined
from .reports import summary_entry


def join_pieces(results, specs):
    """A run's results with the pieces of each suite that ran whole in this
    run (--in-pieces) put back together into that suite's result."""
    by_name, joined = {}, []
    for r in results:
        by_name.setdefault(r.spec.name, []).append(r)
    whole = {s.name: s for s in specs}
    for name, runs in by_name.items():
        spec = dataclasses.replace(runs[0].spec, piece=None)
        complete = (sorted(r.spec.piece.label() for r in runs if r.spec.piece) ==
                    sorted(p.label() for p in spec.pieces))
        if whole.get(name) and spec.pieces and complete:
            try:
                joined.append(merged_suite(spec, [summary_entry(r, ()) for r in runs]))
                continue
            except ValueError as error:
                joined.append(SuiteResult(spec, status='error', note=str(error)))
                continue
        joined += runs
    return joined


def merge_parts(folders, specs, subset_path, command):
    """The results and context of one run made of the summary.json files of
    several partial runs of the same subset."""
    by_name, entries, parts, seen = {s.name: s for s in specs}, {}, [], {}
    for folder in folders:
        path = os.path.join(folder, 'summary.json')
        try:
            with open(path, encoding='utf-8') as f:
                summary = json.load(f)
        except (OSError, ValueError) as error:
            raise SystemExit(f'--merge {folder}: no readable summary.json ({error})')
        context = summary['context']
        for key in ('lockstep_commit', 'cts_commit', 'quick'):
            if seen.setdefault(key, context[key]) != context[key]:
                raise SystemExit(f'--merge {folder}: {key} {context[key]!r} is not the other '
                                 f'parts\' {seen[key]!r}')
        names = []
        for suite in summary['suites']:
            name = suite['name']
            spec = by_name.get(name)
            if spec is None:
                raise SystemExit(f'--merge {folder}: {name} is not in {subset_path}')
            if [suite['binary']] + suite['args'] != [spec.binary] + spec.args:
                raise SystemExit(f'--merge {folder}: {name} ran with other arguments than '
                                 f'{subset_path} gives')
            piece = suite.get('piece')
            if piece is None and name in entries or \
                    piece is not None and any(e.get('piece') is None for e in entries.get(name, [])):
                raise SystemExit(f'--merge {folder}: {name} is in two parts')
            entries.setdefault(name, []).append(suite)
            names.append(name if piece is None else
                         f'{name} ({Piece(tuple(piece["subtests"]), tuple(piece["filters"])).label()})')
        parts.append({'machine': context['machine'], 'date': context['date'],
                      'wall_s': context['wall_s'], 'command': context['command'],
                      'note': context.get('note', ''), 'suites': names,
                      'platform': context['platform']})
    missing = [s.name for s in specs if s.name not in entries]
    if missing:
        raise SystemExit(f'--merge: no part ran {", ".join(missing)}')
    results = {}
    for spec in specs:
        try:
            results[spec.name] = merged_suite(spec, entries[spec.name])
        except ValueError as error:
            raise SystemExit(f'--merge: {spec.name}: {error}')
    machines = list(dict.fromkeys(p['machine'] for p in parts))
    context = {
        'date': min(p['date'] for p in parts),
        'command': command,
        'cts_build': None,
        'cts_commit': seen['cts_commit'],
        'lockstep_commit': seen['lockstep_commit'],
        'subset': os.path.relpath(subset_path, REPO_ROOT) if subset_path.startswith(REPO_ROOT)
                  else subset_path,
        'quick': seen['quick'],
        'machine': '; '.join(machines),
        'platform': next((p['platform'] for p in parts if p['platform']), None),
        'wall_s': sum(p['wall_s'] for p in parts),
        'parts': [{k: v for k, v in p.items() if k != 'platform'} for p in parts],
    }
    return [results[s.name] for s in specs], context


def merged_suite(spec, suites):
    """One suite's result from its summary.json entries: the whole suite, or
    pieces that cover its selection exactly (ValueError says how not)."""
    if suites[0].get('piece') is None:
        return entry_result(spec, suites[0])
    aborted = [s for s in suites if s['status'] in ('missing', 'error')]
    if aborted:  # a piece that never ran has no selection to check against
        s = aborted[0]
        return SuiteResult(spec, status=s['status'], note=s['note'], log=s['log'])
    selection = suites[0]['piece']['selection']
    if any(s['piece']['selection'] != selection for s in suites):
        raise ValueError('its pieces saw different sub-test lists')
    axis = SPLIT_AXES.get(spec.split or '', ())
    covering = {}
    for s in suites:
        for name in s['piece']['subtests']:
            if name not in selection:
                raise ValueError(f'a piece ran {name}, which the subset does not select')
            covering.setdefault(name, []).append(s['piece']['filters'])
    for name in selection:
        filters = covering.get(name)
        if not filters:
            raise ValueError(f'no piece ran its sub-test {name}')
        if len(filters) == 1 and not filters[0]:
            continue
        flat = [f for fs in filters for f in fs]
        if not all(filters) or sorted(flat) != sorted(axis):
            raise ValueError(f'the pieces of {name} do not cover the {spec.split or "split"} '
                             f'axis once each: {flat}')
    result = combined(spec, [(entry_result(spec, s), s['piece']['subtests']) for s in suites])
    result.subtests = {name: result.subtests[name] for name in selection}  # the subset's order
    return result


def entry_result(spec, suite):
    """A suite's (or a piece's) result as summary.json holds it."""
    return SuiteResult(spec, status=suite['status'], exit_code=suite['exit_code'],
                       wall_s=suite['wall_s'], source=suite['source'], note=suite['note'],
                       log=suite['log'],
                       subtests={n: SubTest(t) for n, t in suite['subtests'].items()})
