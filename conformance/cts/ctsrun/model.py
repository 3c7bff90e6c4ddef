"""What a run is made of: the suites of a subset (SuiteSpec), the pieces a
suite may be split into (Piece), and what running them found (SuiteResult,
SubTest), with the constants their rules need."""

import dataclasses
import hashlib
import os
import re


HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # conformance/cts


REPO_ROOT = os.path.dirname(os.path.dirname(HERE))


SUBSET_DIR = os.path.join(HERE, 'subsets')


DEFAULT_EXPECTATIONS = os.path.join(HERE, 'expectations.txt')


KNOWN_CTS_ISSUES = os.path.join(HERE, 'known-cts-issues.txt')


DEFAULT_TIMEOUT_S = 1800


# Suite outcomes that break an expectation: anything but passed/skipped.
BAD_SUITE_STATUSES = {'failed', 'crashed', 'timeout', 'missing', 'error'}


# Sub-test outcomes that count as failures in the tables and in JUnit.
BAD_SUBTEST_STATUSES = {'fail', 'crash', 'timeout'}


# A sub-test run in pieces has its worst piece's outcome: first in this list.
SUBTEST_SEVERITY = ('crash', 'timeout', 'fail', 'notrun', 'pass', 'skip')


# The channel types the CTS image suites take as a filter argument (the
# harness's get_channel_type_from_name): a suite split by channel type is
# whole when its pieces' types together are this list, each once.
CHANNEL_TYPES = (
    'CL_SNORM_INT8', 'CL_SNORM_INT16', 'CL_UNORM_INT8', 'CL_UNORM_INT16', 'CL_UNORM_INT24',
    'CL_UNORM_SHORT_565', 'CL_UNORM_SHORT_555', 'CL_UNORM_INT_101010',
    'CL_UNORM_INT_101010_2', 'CL_UNORM_INT_2_101010_EXT', 'CL_SIGNED_INT8', 'CL_SIGNED_INT16',
    'CL_SIGNED_INT32', 'CL_UNSIGNED_INT8', 'CL_UNSIGNED_INT16', 'CL_UNSIGNED_INT32',
    'CL_HALF_FLOAT', 'CL_FLOAT', 'CL_UNSIGNED_INT10X6_EXT', 'CL_UNSIGNED_INT12X4_EXT',
    'CL_UNSIGNED_INT14X2_EXT', 'CL_UNORM_INT10X6_EXT', 'CL_UNORM_INT12X4_EXT',
    'CL_UNORM_INT14X2_EXT')


SPLIT_AXES = {'channel-types': CHANNEL_TYPES}


@dataclasses.dataclass(frozen=True)
class Piece:
    """Part of one suite's run: these sub-tests, and where `filters` is not
    empty only the image formats of these channel types."""
    subtests: tuple
    filters: tuple = ()

    def label(self):
        return ','.join(self.subtests) + (':' + ','.join(self.filters) if self.filters else '')


@dataclasses.dataclass
class SuiteSpec:
    """One line of a subset file."""
    name: str
    binary: str  # relative to the CTS build folder
    args: list
    timeout_s: int | None = None
    serial: bool = False
    split: str | None = None  # an axis of SPLIT_AXES its pieces may filter by
    piece: Piece | None = None  # set when this run is one piece of the suite
    pieces: tuple = ()  # the subset's `pieces` line: how --in-pieces runs it

    @property
    def run_name(self):
        """Unique among a run's suites and pieces; names the logs (a long
        piece label is shortened with a hash of it: file names have limits)."""
        if self.piece is None:
            return self.name
        label = re.sub(r'[^\w.-]', '-', self.piece.label())
        if len(label) > 60:
            label = label[:40] + '-' + hashlib.sha1(label.encode()).hexdigest()[:12]
        return f'{self.name}.{label}'


@dataclasses.dataclass
class SubTest:
    status: str  # pass, fail, skip, crash, timeout, notrun
    time_s: float | None = None


@dataclasses.dataclass
class SuiteResult:
    spec: SuiteSpec
    status: str = 'error'
    exit_code: int | None = None
    wall_s: float = 0.0
    subtests: dict = dataclasses.field(default_factory=dict)
    source: str = 'none'  # where the sub-test statuses came from: json or output
    note: str = ''
    log: str = ''
    selection: list | None = None  # a piece's: every sub-test the suite selects

    def count(self, *statuses):
        return sum(1 for t in self.subtests.values() if t.status in statuses)

    def failures(self):
        return [(n, t.status) for n, t in self.subtests.items()
                if t.status in BAD_SUBTEST_STATUSES]


def suite_status(result):
    if result.status in ('missing', 'timeout', 'crashed'):
        return result.status
    if not result.subtests:
        result.note = result.note or 'no sub-test results in the output'
        return 'error'
    if result.count(*BAD_SUBTEST_STATUSES) or result.exit_code != 0:
        if not result.count(*BAD_SUBTEST_STATUSES) and not result.note:
            result.note = f'exit status {result.exit_code} with no failed sub-test'
        return 'failed'
    return 'skipped' if result.count('skip') == len(result.subtests) else 'passed'


def combined(spec, runs):
    """One result of `spec` from several runs of parts of it (the pieces of a
    suite, or a piece's processes, one a channel type), each given with the
    sub-tests it was to run: a sub-test has its worst outcome among the runs
    that were to run it (`notrun` where one did not report it), and a crash
    or timeout of any run is the suite's."""
    results = [r for r, _ in runs]
    result = SuiteResult(
        spec, exit_code=next((r.exit_code for r in results if r.exit_code != 0), 0),
        wall_s=sum(r.wall_s for r in results),
        source='json' if all(r.source == 'json' for r in results) else 'output',
        note='; '.join(r.note for r in results if r.note),
        log=', '.join(r.log for r in results if r.log))
    for run, names in runs:
        for name in names:
            test = run.subtests.get(name, SubTest('notrun'))
            old = result.subtests.get(name)
            if old is None or SUBTEST_SEVERITY.index(test.status) < SUBTEST_SEVERITY.index(old.status):
                result.subtests[name] = test
    statuses = [r.status for r in results]
    aborted = [s for s in ('crashed', 'timeout') if s in statuses]
    result.status = aborted[0] if aborted else suite_status(result)
    return result
