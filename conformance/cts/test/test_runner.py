#!/usr/bin/env python3
"""Tests conformance/cts/run without the CTS: each test builds a fake "CTS
build" of tiny shell scripts that behave like CTS binaries (print the
harness's per-sub-test lines, write its results JSON, fail, crash, hang) and
checks what the runner concludes, writes and returns."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

RUNNER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'run')
sys.path.insert(0, os.path.dirname(RUNNER))
from ctsrun.model import CHANNEL_TYPES  # noqa: E402

# Every fake suite first checks what the runner promises each CTS binary:
# its own folder as the working directory, a loader that can see only
# lockstep.icd, naming a copy of the driver made for this run, and platform 0.
PROLOGUE = r'''#!/bin/bash
ulimit -c 0
here=$(cd "$(dirname "$0")" && pwd)
if [ "$1" = --list ]; then printf '\t%s\n' a b c; exit 0; fi
[ "$PWD" = "$here" ] || { echo "wrong working directory $PWD"; exit 3; }
icds=$(ls "$OCL_ICD_VENDORS" | grep -c "\.icd$")
[ "$icds" = 1 ] && [ -f "$OCL_ICD_VENDORS/lockstep.icd" ] || { echo "not isolated"; exit 4; }
lib=$(cat "$OCL_ICD_VENDORS/lockstep.icd")
[ "$(dirname "$lib")" = "$OCL_ICD_VENDORS" ] && [ -f "$lib" ] || { echo "no snapshot"; exit 7; }
[ "$CL_PLATFORM_INDEX" = 0 ] || { echo "no platform index"; exit 5; }
[ -z "$OCL_ICD_FILENAMES" ] || { echo "extra ICDs"; exit 6; }
echo "$*" > "$here/args.txt"
echo "${CL_WIMPY_MODE:-}" > "$here/wimpy.txt"
results() {  # name=status...: the harness's JSON file
  [ -n "$CL_CONFORMANCE_RESULTS_FILENAME" ] || return
  { printf '{\n\t"cmd": "%s",\n\t"args": "%s",\n\t"results": {\n' "$0" "$*"
    sep=''
    for r in "$@"; do printf '%s\t\t"%s": "%s"' "$sep" "${r%%=*}" "${r#*=}"; sep=$',\n'; done
    printf '\n\t}\n}\n'; } > "$CL_CONFORMANCE_RESULTS_FILENAME"
}
'''

SCENARIOS = {
    'pass': 'echo a...; echo a passed; echo b...; echo b passed; results a=pass b=pass; exit 0',
    'fail': 'echo a...; echo a passed; echo b...; echo b FAILED; results a=pass b=fail; exit 1',
    'skip': 'echo a...; echo a test not supported; results a=skip; exit 0',
    'crash': 'echo a...; echo a passed; echo b...; echo Compiling...; kill -SEGV $$',
    'hang': 'echo a...; echo $$ > "$here/pid"; exec sleep 60',
    'nojson': 'echo a...; echo a passed; echo b...; echo b FAILED; exit 1',
    'quit': 'echo a...; echo a passed; echo b...; exit 1',
    'badexit': 'echo a...; echo a passed; results a=pass; exit 2',
    # Runs the sub-tests its arguments name (all three when none), as the
    # harness does; fails c when asked for the CL_FLOAT formats. Records
    # every run's arguments (the harness takes one channel type: the last).
    'select': ('echo "$*" >> "$here/runs.txt"; names=(); for t in "$@"; do case $t in a|b|c) names+=($t);; esac; done; '
               '[ ${#names[@]} = 0 ] && names=(a b c); r=(); for t in "${names[@]}"; do '
               'echo $t...; if [ $t = c ] && [[ " $* " = *" CL_FLOAT "* ]]; then '
               'echo $t FAILED; r+=($t=fail); else echo $t passed; r+=($t=pass); fi; done; '
               'results "${r[@]}"; exit 0'),
    'cpus': ('grep Cpus_allowed_list /proc/$$/status | cut -f2 > "$here/cpus.txt"; '
             'echo a...; echo a passed; results a=pass; exit 0'),
}

SUBSET = '''# fake subset
pass     suites/pass/fake_pass        -  a b
fail     suites/fail/fake_fail        timeout=30
skip     suites/skip/fake_skip        -
crash    suites/crash/fake_crash      -  b c
hang     suites/hang/fake_hang        timeout=2
nojson   suites/nojson/fake_nojson    -
quit     suites/quit/fake_quit        -
badexit  suites/badexit/fake_badexit  serial
missing  suites/missing/fake_missing  -
'''


class FakeCts:
    """A temporary folder laid out like a CTS build, plus an .icd file."""

    def __init__(self, root):
        self.root = root
        self.cts = os.path.join(root, 'cts-build')
        for name, body in SCENARIOS.items():
            folder = os.path.join(self.cts, 'suites', name)
            os.makedirs(folder)
            path = os.path.join(folder, 'fake_' + name)
            with open(path, 'w') as f:
                f.write(PROLOGUE + body + '\n')
            os.chmod(path, 0o755)
        library = os.path.join(root, 'build', 'liblockstep.so.0.1.0')
        os.makedirs(os.path.dirname(library))
        with open(library, 'w') as f:
            f.write('a driver library\n')
        self.icd = os.path.join(root, 'lockstep.icd')
        with open(self.icd, 'w') as f:
            f.write(library + '\n')
        self.subset = self.write('subset.txt', SUBSET)

    def write(self, name, text):
        path = os.path.join(self.root, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def run(self, *extra, expect=('pass',), subset=None):
        expectations = self.write('expectations.txt', '\n'.join(expect) + '\n')
        out = os.path.join(self.root, 'out')
        command = [sys.executable, RUNNER, '--cts', self.cts, '--icd', self.icd,
                   '--no-preflight', '--subset', subset or self.subset, '--out', out,
                   '--expectations', expectations, *extra]
        env = dict(os.environ, OCL_ICD_FILENAMES='/should/be/removed.so')
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
        return proc, out


class RunnerTest(unittest.TestCase):

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix='cts-runner-test-')
        self.fake = FakeCts(self.root)

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def summary(self, out):
        with open(os.path.join(out, 'summary.json')) as f:
            return {s['name']: s for s in json.load(f)['suites']}

    def test_each_outcome_is_classified(self):
        proc, out = self.fake.run('-j', '3')
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        suites = self.summary(out)
        self.assertEqual({n: s['status'] for n, s in suites.items()}, {
            'pass': 'passed', 'fail': 'failed', 'skip': 'skipped', 'crash': 'crashed',
            'hang': 'timeout', 'nojson': 'failed', 'quit': 'failed', 'badexit': 'failed',
            'missing': 'missing'})
        self.assertEqual(suites['pass']['subtests'], {'a': 'pass', 'b': 'pass'})
        self.assertEqual(suites['pass']['source'], 'json')
        self.assertEqual(suites['fail']['subtests'], {'a': 'pass', 'b': 'fail'})
        # The crash names the running sub-test; the selection's rest never ran.
        self.assertEqual(suites['crash']['subtests'], {'a': 'pass', 'b': 'crash', 'c': 'notrun'})
        self.assertIn('SIGSEGV', suites['crash']['note'])
        self.assertEqual(suites['hang']['subtests']['a'], 'timeout')
        self.assertEqual(suites['nojson']['source'], 'output')
        self.assertEqual(suites['nojson']['subtests'], {'a': 'pass', 'b': 'fail', 'c': 'notrun'})
        # Quitting mid-way (exit() in a test) blames the running sub-test.
        self.assertEqual(suites['quit']['subtests'], {'a': 'pass', 'b': 'crash', 'c': 'notrun'})
        self.assertIn('while running b', suites['quit']['note'])
        self.assertIn('exit status 2', suites['badexit']['note'])

    def test_binaries_get_their_arguments_and_quick_mode(self):
        proc, _ = self.fake.run('--suite', 'pass', '--quick')
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        folder = os.path.join(self.fake.cts, 'suites', 'pass')
        with open(os.path.join(folder, 'args.txt')) as f:
            self.assertEqual(f.read().strip(), 'a b')
        with open(os.path.join(folder, 'wimpy.txt')) as f:
            self.assertEqual(f.read().strip(), '1')

    def test_expected_suite_failing_fails_the_run(self):
        for broken in ('fail', 'crash', 'hang', 'missing', 'badexit'):
            proc, _ = self.fake.run('--suite', 'pass', '--suite', broken, expect=('pass', broken))
            self.assertEqual(proc.returncode, 1, broken)
            self.assertIn(broken, proc.stderr)

    def test_reports(self):
        _, out = self.fake.run()
        root = ET.parse(os.path.join(out, 'junit.xml')).getroot()
        suites = {s.get('name'): s for s in root.iter('testsuite')}
        self.assertEqual(suites['fail'].get('failures'), '1')
        self.assertEqual(suites['crash'].get('errors'), '1')
        self.assertEqual(suites['crash'].get('skipped'), '1')
        self.assertEqual(suites['missing'].get('errors'), '1')
        with open(os.path.join(out, 'summary.md')) as f:
            table = f.read()
        self.assertIn('| fail | - | FAILED | 1 | 1 | 0 | 0 |', table)
        self.assertIn('| pass | pass | passed | 2 | 0 | 0 | 0 |', table)
        self.assertIn('b (crash)', table)
        self.assertTrue(os.path.isfile(os.path.join(out, 'logs', 'crash.log')))

    def test_interrupt_ends_the_running_suite(self):
        subset = self.fake.write('hang.txt', 'pass suites/pass/fake_pass - a b\n'
                                             'hang suites/hang/fake_hang timeout=100\n')
        out = os.path.join(self.root, 'out')
        runner = subprocess.Popen(
            [sys.executable, RUNNER, '--cts', self.fake.cts, '--icd', self.fake.icd,
             '--no-preflight', '--subset', subset, '--out', out],
            stdout=subprocess.DEVNULL)
        pid_file = os.path.join(self.fake.cts, 'suites', 'hang', 'pid')
        deadline = time.monotonic() + 30
        while not os.path.exists(pid_file) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        with open(pid_file) as f:
            pid = int(f.read())
        runner.send_signal(signal.SIGINT)
        self.assertEqual(runner.wait(timeout=60), 130)
        with self.assertRaises(ProcessLookupError):
            os.kill(pid, 0)
        # The suites that finished before are reported, the run marked cut short.
        with open(os.path.join(out, 'summary.json')) as f:
            summary = json.load(f)
        self.assertEqual([s['name'] for s in summary['suites']], ['pass'])
        self.assertFalse(summary['context']['complete'])
        self.assertIn('1 of 2', summary['context']['note'])

    def test_conformance_md_only_from_a_whole_core_run(self):
        core = self.fake.write('core.txt', SUBSET)
        target = os.path.join(self.root, 'CONFORMANCE.md')
        refused, _ = self.fake.run('--update-conformance-md', '--conformance-md', target,
                                   '--suite', 'pass', subset=core)
        self.assertNotEqual(refused.returncode, 0)
        self.assertFalse(os.path.exists(target))
        proc, _ = self.fake.run('--update-conformance-md', '--conformance-md', target,
                                '--cts-commit', 'abc123', subset=core)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(target) as f:
            text = f.read()
        self.assertIn('do not edit by hand', text)
        self.assertIn('`abc123`', text)
        self.assertIn('--update-conformance-md', text)
        self.assertIn('| crash | - | CRASHED |', text)

    def test_parts_merge_into_one_run(self):
        core = self.fake.write('core.txt', 'pass suites/pass/fake_pass - a b\n'
                                           'fail suites/fail/fake_fail -\n'
                                           'skip suites/skip/fake_skip -\n')
        known = self.fake.write('known.txt', 'fail b https://example.org/cts/1\n'
                                             'fail a https://example.org/cts/2\n')
        parts = []
        for i, suites in enumerate((['pass', 'skip'], ['fail'])):
            out = os.path.join(self.root, f'part{i}')
            proc = subprocess.run(
                [sys.executable, RUNNER, '--cts', self.fake.cts, '--icd', self.fake.icd,
                 '--no-preflight', '--subset', core, '--out', out, '--cts-commit', 'abc123',
                 '--lockstep-commit', 'def456'] + [a for s in suites for a in ('--suite', s)],
                capture_output=True, text=True, timeout=120)
            parts.append(out)
        target = os.path.join(self.root, 'CONFORMANCE.md')
        merge = [sys.executable, RUNNER, '--subset', core, '--out',
                 os.path.join(self.root, 'merged'), '--expectations', os.devnull]

        def run(*extra):
            return subprocess.run(merge + list(extra), capture_output=True, text=True,
                                  timeout=120)
        # A part missing, or a suite in two parts, is refused.
        self.assertNotEqual(run('--merge', parts[0]).returncode, 0)
        self.assertIn('in two parts', run('--merge', parts[0], '--merge', parts[0]).stderr)
        proc = run('--merge', parts[0], '--merge', parts[1], '--update-conformance-md',
                   '--conformance-md', target, '--known-cts-issues', known)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        suites = self.summary(os.path.join(self.root, 'merged'))
        self.assertEqual({n: s['status'] for n, s in suites.items()},
                         {'pass': 'passed', 'fail': 'failed', 'skip': 'skipped'})
        with open(target) as f:
            text = f.read()
        self.assertIn('`def456`', text)
        self.assertIn('| fail | - | FAILED | 1 | 1 | 0 | 0 |', text)
        self.assertIn('2 suites on ', text)
        self.assertIn(': pass, skip', text)
        # A failure the CTS itself is known to cause is cited, and still counts.
        self.assertIn('b (a known CTS fault: https://example.org/cts/1)', text)
        self.assertNotIn('cts/2', text)
        # Parts that tested another commit do not merge.
        with open(os.path.join(parts[1], 'summary.json')) as f:
            summary = json.load(f)
        summary['context']['lockstep_commit'] = 'other'
        with open(os.path.join(parts[1], 'summary.json'), 'w') as f:
            json.dump(summary, f)
        self.assertIn('lockstep_commit', run('--merge', parts[0], '--merge', parts[1]).stderr)

    def test_pieces_of_a_suite_merge_into_it(self):
        core = self.fake.write('core.txt', 'select suites/select/fake_select '
                                           'split=channel-types  X\n'
                                           'pass suites/pass/fake_pass - a b\n')
        types = list(CHANNEL_TYPES)
        half = len(types) // 2

        def part(name, *suites):
            out = os.path.join(self.root, name)
            proc = subprocess.run(
                [sys.executable, RUNNER, '--cts', self.fake.cts, '--icd', self.fake.icd,
                 '--no-preflight', '--subset', core, '--out', out, '--cts-commit', 'abc',
                 '--lockstep-commit', 'def', '--expectations', os.devnull] +
                [a for s in suites for a in ('--suite', s)],
                capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            return out
        ab = part('ab', 'select:a,b', 'pass')
        with open(os.path.join(self.fake.cts, 'suites', 'select', 'args.txt')) as f:
            self.assertEqual(f.read().split(), ['X', 'a', 'b'])
        runs = os.path.join(self.fake.cts, 'suites', 'select', 'runs.txt')
        os.remove(runs)
        c1 = part('c1', 'select:c:' + ','.join(types[:half]))
        # One process per channel type: the harness takes only one.
        with open(runs) as f:
            self.assertEqual([line.split() for line in f], [['X', 'c', t] for t in types[:half]])
        c2 = part('c2', 'select:c:' + ','.join(types[half:]))
        # A piece's long label is shortened in its log names.
        self.assertTrue(all(len(n) < 100 for n in os.listdir(os.path.join(c2, 'logs'))))
        rest = [t for t in types[half:] if t != 'CL_FLOAT']
        c2_without_float = part('c2f', 'select:c:' + ','.join(rest))
        a_again = part('a', 'select:a')
        merge = [sys.executable, RUNNER, '--subset', core, '--out',
                 os.path.join(self.root, 'merged'), '--expectations', os.devnull]

        def run(*parts):
            return subprocess.run(merge + [a for p in parts for a in ('--merge', p)],
                                  capture_output=True, text=True, timeout=120)
        proc = run(ab, c1, c2)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        merged = self.summary(os.path.join(self.root, 'merged'))['select']
        # c failed in the piece with CL_FLOAT: the suite failed, a and b passed.
        self.assertEqual(merged['status'], 'failed')
        self.assertEqual(merged['subtests'], {'a': 'pass', 'b': 'pass', 'c': 'fail'})
        with open(os.path.join(self.root, 'merged', 'summary.md')) as f:
            self.assertIn('select (a,b)', f.read())
        # Each selected sub-test must be covered, and each channel type once.
        self.assertIn('no piece ran its sub-test c', run(ab).stderr)
        self.assertIn('do not cover', run(ab, c1).stderr)
        self.assertIn('do not cover', run(ab, c1, c2_without_float).stderr)
        self.assertIn('do not cover', run(ab, c1, c2, c2).stderr)
        self.assertIn('do not cover', run(ab, a_again, c1, c2).stderr)
        # A piece may not ask for what the subset does not select or allow.
        proc = subprocess.run(
            [sys.executable, RUNNER, '--cts', self.fake.cts, '--icd', self.fake.icd,
             '--no-preflight', '--subset', core, '--out', os.path.join(self.root, 'bad'),
             '--expectations', os.devnull, '--suite', 'pass:a:CL_FLOAT', '--suite', 'select:z'],
            capture_output=True, text=True, timeout=120)
        bad = self.summary(os.path.join(self.root, 'bad'))
        self.assertEqual(bad['pass']['status'], 'error')
        self.assertIn('allows no such filter', bad['pass']['note'])
        self.assertEqual(bad['select']['status'], 'error')

    def test_in_pieces_runs_the_subsets_pieces_and_reports_the_suite_whole(self):
        types = list(CHANNEL_TYPES)
        others = [t for t in types if t != 'CL_FLOAT']
        subset = self.fake.write('pieces.txt', (
            'select suites/select/fake_select split=channel-types  X\n'
            f'types floats CL_FLOAT\ntypes others {" ".join(others)}\n'
            'pieces select a,b c:floats c:others\n'))
        proc, out = self.fake.run('--in-pieces', '-j', '2', expect=(), subset=subset)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        logs = [n for n in os.listdir(os.path.join(out, 'logs')) if n.endswith('.log')]
        self.assertEqual(len(logs), 2 + len(others))  # a,b; c with CL_FLOAT; c per other type
        select = self.summary(out)['select']
        self.assertIsNone(select['piece'])
        self.assertEqual(select['status'], 'failed')
        self.assertEqual(select['subtests'], {'a': 'pass', 'b': 'pass', 'c': 'fail'})
        # Without --in-pieces the suite runs as one process.
        proc, out = self.fake.run(expect=(), subset=subset)
        self.assertEqual(self.summary(out)['select']['subtests'],
                         {'a': 'pass', 'b': 'pass', 'c': 'pass'})

    def test_cpus_per_suite_pins_each_suite(self):
        subset = self.fake.write('cpus.txt', 'cpus suites/cpus/fake_cpus -\n')
        cpus_file = os.path.join(self.fake.cts, 'suites', 'cpus', 'cpus.txt')
        everything = sorted(os.sched_getaffinity(0))
        for extra, want in ((['--cpus-per-suite', '1'], [everything[0]]), ([], everything)):
            proc, _ = self.fake.run('--suite', 'cpus', *extra, expect=(), subset=subset)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(cpus_file) as f:
                text = f.read().strip()
            got = []
            for part in text.split(','):
                low, _, high = part.partition('-')
                got += range(int(low), int(high or low) + 1)
            self.assertEqual(got, want)


if __name__ == '__main__':
    unittest.main(verbosity=2)
