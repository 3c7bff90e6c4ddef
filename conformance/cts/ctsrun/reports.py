"""The reports of a run: summary.md, junit.xml, summary.json and
CONFORMANCE.md."""

import json
import os
import shlex
import xml.etree.ElementTree as ET

from .model import BAD_SUBTEST_STATUSES, BAD_SUITE_STATUSES


KNOWN_FAULTS = {}  # (suite, sub-test) -> URL, from --known-cts-issues


def failure_text(result, limit):
    known = KNOWN_FAULTS
    names = [(n if s == 'fail' else f'{n} ({s})') +
             (f' (a known CTS fault: {known[(result.spec.name, n)]})'
              if (result.spec.name, n) in known else '')
             for n, s in result.failures()]
    if result.note and result.status in BAD_SUITE_STATUSES:
        names.insert(0, result.note)
    if len(names) > limit:
        names = names[:limit] + [f'and {len(names) - limit} more']
    return ', '.join(names).replace('|', '\\|')


def markdown(results, context, expected, title):
    seen = context['platform']
    lines = [f'# {title}', '',
             f'- Date: {context["date"]}',
             f'- CTS commit: `{context["cts_commit"]}`',
             f'- Lockstep commit: `{context["lockstep_commit"]}`',
             f'- Machine: {context["machine"]}',
             ('- Platform: ' + (f'{seen["name"]} ({seen["version"]}), devices: '
                                f'{", ".join(seen["devices"])}' if seen else 'not checked')),
             f'- Subset: `{context["subset"]}`' + (' in quick (wimpy) mode' if context['quick']
                                                     else ''),
             f'- Command: `{context["command"]}`',
             f'- Wall time: {context["wall_s"]:.0f} s' +
             (", the parts' added" if context.get('parts') else ''), '']
    if context.get('note') and not context.get('parts'):
        lines[-1:-1] = [f'- Note: {context["note"]}']
    if context.get('parts'):
        lines[-1:-1] = ['- Parts (the suites of each part, where and how they ran):'] + [
            f'  - {len(part["suites"])} suites on {part["machine"]}, {part["date"]}, '
            f'{part["wall_s"]:.0f} s: `{part["command"]}`'
            + (f' ({part["note"]})' if part.get('note') else '')
            + f': {", ".join(part["suites"])}' for part in context['parts']]
    passed = sum(1 for r in results if r.status == 'passed')
    lines += [f'{passed} of {len(results)} suites passed; sub-tests: '
              f'{sum(r.count("pass") for r in results)} passed, '
              f'{sum(r.count(*BAD_SUBTEST_STATUSES) for r in results)} failed, '
              f'{sum(r.count("skip") for r in results)} skipped, '
              f'{sum(r.count("notrun") for r in results)} not run.', '',
              '| Suite | Expected | Result | Passed | Failed | Skipped | Not run | Time | '
              'Failures |',
              '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |']
    for r in results:
        result = r.status.upper() if r.status in BAD_SUITE_STATUSES else r.status
        lines.append(f'| {r.spec.run_name} | {"pass" if r.spec.name in expected else "-"} | '
                     f'{result} | {r.count("pass")} | {r.count(*BAD_SUBTEST_STATUSES)} | '
                     f'{r.count("skip")} | {r.count("notrun")} | {r.wall_s:.1f} s | '
                     f'{failure_text(r, 8)} |')
    details = [r for r in results if r.failures() or r.status in BAD_SUITE_STATUSES]
    if details:
        lines += ['', '## Failures', '']
        for r in details:
            lines.append(f'- **{r.spec.run_name}** (`{shlex.join([r.spec.binary] + r.spec.args)}`): '
                         f'{failure_text(r, 10000)}')
    return '\n'.join(lines) + '\n'


def junit(results, context):
    root = ET.Element('testsuites', name='Khronos OpenCL CTS',
                      time=f'{context["wall_s"]:.3f}')
    for r in results:
        suite = ET.SubElement(root, 'testsuite', name=r.spec.run_name, time=f'{r.wall_s:.3f}',
                              tests=str(max(1, len(r.subtests))),
                              failures=str(r.count('fail')),
                              errors=str(r.count('crash', 'timeout') +
                                         (0 if r.subtests or r.status not in BAD_SUITE_STATUSES
                                          else 1)),
                              skipped=str(r.count('skip', 'notrun')))
        if not r.subtests:  # a suite that never got to its sub-tests is one error
            case = ET.SubElement(suite, 'testcase', classname=f'cts.{r.spec.name}',
                                 name=r.spec.name, time=f'{r.wall_s:.3f}')
            if r.status in BAD_SUITE_STATUSES:
                ET.SubElement(case, 'error', message=r.note or r.status)
        for name, sub in r.subtests.items():
            case = ET.SubElement(suite, 'testcase', classname=f'cts.{r.spec.name}', name=name,
                                 time=f'{sub.time_s or 0:.3f}')
            if sub.status == 'fail':
                ET.SubElement(case, 'failure', message=f'{name} FAILED (see {r.log})')
            elif sub.status in ('crash', 'timeout'):
                ET.SubElement(case, 'error', message=f'{r.note} while running {name}')
            elif sub.status in ('skip', 'notrun'):
                ET.SubElement(case, 'skipped', message='not supported' if sub.status == 'skip'
                              else 'not run: the suite died first')
    ET.indent(root)
    return ET.tostring(root, encoding='unicode', xml_declaration=True) + '\n'


def summary_entry(r, expected):
    return {
        'name': r.spec.name, 'binary': r.spec.binary, 'args': r.spec.args,
        'expected_pass': r.spec.name in expected, 'status': r.status,
        'exit_code': r.exit_code, 'wall_s': round(r.wall_s, 3), 'source': r.source,
        'note': r.note, 'log': r.log,
        'subtests': {n: t.status for n, t in r.subtests.items()},
        'piece': None if r.spec.piece is None else {
            'subtests': list(r.spec.piece.subtests), 'filters': list(r.spec.piece.filters),
            'selection': r.selection},
    }


def summary_json(results, context, expected):
    return json.dumps({
        'context': context,
        'suites': [summary_entry(r, expected) for r in results],
    }, indent=2) + '\n'


def write_reports(results, context, expected, out_dir):
    files = {
        'summary.md': markdown(results, context, expected, 'Khronos OpenCL CTS on ' +
                               (context['platform'] or {}).get('name', 'the chosen ICD')),
        'junit.xml': junit(results, context),
        'summary.json': summary_json(results, context, expected),
    }
    for name, text in files.items():
        with open(os.path.join(out_dir, name), 'w', encoding='utf-8') as f:
            f.write(text)


def write_conformance_md(results, context, expected, path):
    header = ('<!-- Generated by conformance/cts/run --update-conformance-md from a core run;'
              ' do not edit by hand. -->\n\n')
    body = markdown(results, context, expected, 'Lockstep conformance: Khronos OpenCL CTS')
    note = ('\nThe `core` subset is every CTS suite the device is expected to pass '
            '(conformance/cts/subsets/core.txt); suites marked `pass` under Expected are in '
            'conformance/cts/expectations.txt. This is not a Khronos conformance submission.\n')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(header + body + note)
