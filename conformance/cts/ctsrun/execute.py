"""Running suites: one CTS binary per process, from its own folder, in its
own process group, pinned to CPUs of its own where asked; its sub-test
results from the harness's JSON file, or from its output when it died."""

import concurrent.futures
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time

from .model import (BAD_SUBTEST_STATUSES, SPLIT_AXES, SubTest, SuiteResult, combined,
                    suite_status)


class OutputParser:
    """Follows the harness's per-sub-test lines as they are printed:
    `name...` when it starts, then `name passed`, `name FAILED`,
    `name test not supported` or a version/offline-compiler skip."""
    START = re.compile(r'^(\w+)\.\.\.$')
    RESULTS = [
        (re.compile(r'^(\w+) passed$'), 'pass'),
        (re.compile(r'^(\w+) FAILED$'), 'fail'),
        (re.compile(r'^(\w+) test not supported$'), 'skip'),
        (re.compile(r'^(\w+) test currently not implemented$'), 'skip'),
        (re.compile(r'^(\w+) skipped \(requires at least '), 'skip'),
        (re.compile(r'^Subtest (\w+) tests is not supported in offline'), 'skip'),
    ]

    def __init__(self):
        self.subtests = {}
        self.running = None  # (name, start time) of the sub-test in progress
        self.started = []  # every (name, start time), for a crash's blame

    def feed(self, line, now):
        line = line.strip()
        started = self.START.match(line)
        if started:
            self.running = (started.group(1), now)
            self.started.append(self.running)
            return
        for pattern, status in self.RESULTS:
            done = pattern.match(line)
            if done:
                name = done.group(1)
                began = self.running[1] if self.running and self.running[0] == name else None
                self.subtests[name] = SubTest(status, None if began is None else now - began)
                self.running = None
                return


def resolve_binary(cts_dir, relative):
    """The subset's path, else the same file where `cmake --install` puts it."""
    for candidate in (os.path.join(cts_dir, relative),
                      os.path.join(cts_dir, 'test_conformance', relative),
                      os.path.join(cts_dir, 'bin', os.path.basename(relative))):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def stream_output(proc, parser, log):
    with log:
        for line in iter(proc.stdout.readline, ''):
            log.write(line)
            parser.feed(line, time.monotonic())


# The suites' process groups now running: each lives in a session of its own,
# so an interrupted runner must end them itself.
RUNNING = set()


INTERRUPTED = threading.Event()


def stop(proc):
    """Ends the suite's whole process group: TERM, then KILL if it lingers."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 30)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            pass


class CpuPool:
    """With --cpus-per-suite N: the runner's CPUs in sets of N, one set per
    running suite, so that suites run side by side on a large machine do not
    each start a thread per CPU of the whole machine (Lockstep's device has
    as many compute units as the process may use CPUs). Without it, every
    suite may use every CPU."""

    def __init__(self, per_suite):
        cpus = sorted(os.sched_getaffinity(0))
        self.free = ([set(cpus[i:i + per_suite]) for i in range(0, len(cpus), per_suite)]
                     if per_suite else [])
        self.pinning = bool(self.free)
        self.lock = threading.Condition()

    def take(self, serial):
        """A set of CPUs, waiting for one to be free; None (every CPU) for a
        suite that runs alone, or when not pinning."""
        if serial or not self.pinning:
            return None
        with self.lock:
            while not self.free:
                self.lock.wait()
            return self.free.pop(0)

    def give(self, cpus):
        if cpus is not None:
            with self.lock:
                self.free.append(cpus)
                self.lock.notify()


def execute(binary, args, env, log_path, timeout_s, cpus=None):
    """Runs one CTS binary from its own folder (on `cpus` only, when given);
    returns (exit code or None on timeout, parser, wall seconds). Line
    buffering through stdbuf so the output up to a crash reaches the log."""
    if INTERRUPTED.is_set():
        raise KeyboardInterrupt
    command = [binary] + args
    if shutil.which('stdbuf'):
        command = ['stdbuf', '-oL', '-eL'] + command
    parser = OutputParser()
    # Opened here, so that a log that cannot be written fails this suite
    # before its binary starts (in the reader thread it left the binary
    # blocked on a full pipe).
    log = open(log_path, 'w', encoding='utf-8', errors='replace', buffering=1)
    began = time.monotonic()
    try:
        proc = subprocess.Popen(command, cwd=os.path.dirname(binary), env=env, text=True,
                                errors='replace', stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True,
                                preexec_fn=None if cpus is None else
                                lambda: os.sched_setaffinity(0, cpus))
    except OSError:
        log.close()
        raise
    RUNNING.add(proc)
    reader = threading.Thread(target=stream_output, args=(proc, parser, log))
    reader.start()
    try:
        code = proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        stop(proc)
        code = None
    finally:
        RUNNING.discard(proc)
    reader.join(timeout=60)
    return code, parser, time.monotonic() - began


def read_results_json(path):
    """The harness's results file. It writes names and arguments unescaped,
    so fall back to reading its `"name": "status"` lines when JSON fails."""
    if not os.path.isfile(path):
        return None
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    try:
        return dict(json.loads(text)['results'])
    except (ValueError, KeyError, TypeError):
        found = re.findall(r'"(\w+)"\s*:\s*"(pass|fail|skip)"', text)
        return dict(found) if found else None


def list_tests(binary, env):
    """The suite's sub-test names (`--list` needs no device)."""
    try:
        proc = subprocess.run([binary, '--list'], cwd=os.path.dirname(binary), env=env,
                              capture_output=True, text=True, errors='replace', timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    names = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if re.fullmatch(r'\w+', line) and line not in ('Test', 'names'):
            names.append(line)
    return names


def is_selector(arg, all_names):
    return arg in all_names or '*' in arg or arg == 'all'


def selected_tests(all_names, args):
    """Which sub-tests the arguments select, as the harness does: exact names
    or `*` wildcards; none of either selects all."""
    patterns = [a for a in args if a in all_names or '*' in a]
    if not patterns or 'all' in args:
        return list(all_names)
    return [n for n in all_names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def piece_args(spec, all_names):
    """The arguments of one piece of a suite: the subset's, its sub-test
    selection replaced by the piece's sub-tests (the caller adds the piece's
    filters, one a process); with the full selection (for the merge to check
    coverage). Raises
    ValueError when the piece asks for what the subset does not select."""
    selection = selected_tests(all_names, spec.args)
    outside = [n for n in spec.piece.subtests if n not in selection]
    if outside:
        raise ValueError(f'{", ".join(outside)}: not sub-tests the subset selects')
    if spec.piece.filters:
        axis = SPLIT_AXES.get(spec.split or '', ())
        unknown = [f for f in spec.piece.filters if f not in axis]
        if unknown:
            raise ValueError(f'{", ".join(unknown)}: the subset line allows no such filter '
                             f'(split={spec.split or "none"})')
    args = [a for a in spec.args if not is_selector(a, all_names)]
    return args + list(spec.piece.subtests), selection


def subtests_after_abort(result, parser, binary, env, why, run_args):
    """A crash or timeout: the last sub-test that started and never finished
    gets the blame (a suite may print `Something...` lines of its own, so it
    must be a name the suite lists); the rest of the selection never ran."""
    subtests = dict(parser.subtests)
    names = list_tests(binary, env)
    for name, began in reversed(parser.started):
        if name not in subtests and (name in names or not names):
            subtests[name] = SubTest(why, time.monotonic() - began)
            break
    for name in selected_tests(names, run_args):
        subtests.setdefault(name, SubTest('notrun'))
    return subtests


def run_suite(spec, cts_dir, env, out_dir, default_timeout_s, cpus=None):
    """One suite, or one piece of one: a piece that filters by several
    channel types runs the binary once per type (the harness takes one
    channel type argument, the last it is given), its results combined."""
    result = SuiteResult(spec)
    binary = resolve_binary(cts_dir, spec.binary)
    if binary is None:
        result.status, result.note = 'missing', f'{spec.binary} is not built'
        return result
    runs = [(spec.run_name, spec.args)]
    if spec.piece is not None:
        try:
            args, result.selection = piece_args(spec, list_tests(binary, env))
        except ValueError as error:
            result.status, result.note = 'error', str(error)
            return result
        filters = spec.piece.filters
        runs = ([(f'{spec.run_name}.{f}', args + [f]) for f in filters] if len(filters) > 1
                else [(spec.run_name, args + list(filters))])
    timeout_s = spec.timeout_s or default_timeout_s
    if len(runs) == 1:
        once = run_once(spec, binary, runs[0][1], env, out_dir, runs[0][0], timeout_s, cpus)
        once.selection = result.selection
        return once
    outcomes, spent = [], 0.0
    for name, args in runs:
        once = run_once(spec, binary, args, env, out_dir, name, max(1, timeout_s - int(spent)), cpus)
        spent += once.wall_s
        if once.note:
            once.note = f'{args[-1]}: {once.note}'
        outcomes.append((once, spec.piece.subtests))
        if once.status in ('timeout', 'crashed'):
            break  # the piece's time is spent, or the harness is broken
    selection, result = result.selection, combined(spec, outcomes)
    result.selection = selection
    return result


def run_once(spec, binary, run_args, env, out_dir, name, timeout_s, cpus):
    """One process of a suite's binary, its log and results file named
    `name`."""
    result = SuiteResult(spec)
    result.log = os.path.join(out_dir, 'logs', name + '.log')
    json_path = os.path.join(out_dir, 'logs', name + '.results.json')
    if os.path.exists(json_path):
        os.remove(json_path)
    env = dict(env, CL_CONFORMANCE_RESULTS_FILENAME=json_path)
    code, parser, result.wall_s = execute(binary, run_args, env, result.log, timeout_s, cpus)
    result.exit_code = code
    if code is None or code < 0:
        why = 'timeout' if code is None else 'crash'
        result.status = 'timeout' if code is None else 'crashed'
        result.note = (f'killed after {timeout_s}s' if code is None else
                       f'died of {signal.Signals(-code).name}')
        result.subtests, result.source = subtests_after_abort(result, parser, binary, env,
                                                              why, run_args), 'output'
    else:
        statuses = read_results_json(json_path)
        if statuses is not None:
            result.source = 'json'
            result.subtests = {n: SubTest(s, getattr(parser.subtests.get(n), 'time_s', None))
                               for n, s in statuses.items()}
        else:  # the harness writes the file last: the binary quit before the end
            result.subtests, result.source = subtests_after_abort(result, parser, binary, env,
                                                                  'crash', run_args), 'output'
            quit_in = [n for n, t in result.subtests.items() if t.status == 'crash']
            result.note = (f'exited with status {code} without a results file' +
                           (f' while running {quit_in[0]}' if quit_in else ''))
    result.status = suite_status(result)
    return result


def run_all(specs, cts_dir, env, out_dir, args, progress=None):
    """Parallel suites first (-j at a time), then the serial ones alone;
    `progress` gets the results so far (in the subset's order) after each."""
    os.makedirs(os.path.join(out_dir, 'logs'), exist_ok=True)
    results, lock, total = {}, threading.Lock(), len(specs)
    cpu_pool = CpuPool(args.cpus_per_suite)

    def one(spec):
        cpus = cpu_pool.take(spec.serial)
        try:
            result = run_suite(spec, cts_dir, env, out_dir, args.timeout, cpus)
        except OSError as error:  # e.g. a binary that cannot be executed
            result = SuiteResult(spec, status='error', note=str(error))
        finally:
            cpu_pool.give(cpus)
        if INTERRUPTED.is_set():
            return  # stopped by the runner itself: no result of the suite's own
        with lock:
            results[spec.run_name] = result
            print(f'[{len(results)}/{total}] {progress_line(result)}', flush=True)
            if progress:
                progress([results[s.run_name] for s in specs if s.run_name in results])

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        for future in [pool.submit(one, s) for s in specs if not s.serial]:
            future.result()
        for spec in specs:
            if spec.serial:
                one(spec)
    except KeyboardInterrupt:
        INTERRUPTED.set()  # no new suite starts; the running ones end now
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(RUNNING):
            stop(proc)
        raise
    pool.shutdown()
    return [results[s.run_name] for s in specs]


def progress_line(r):
    line = (f'{r.spec.run_name}: {r.status} ({r.count("pass")} passed, '
            f'{r.count(*BAD_SUBTEST_STATUSES)} failed, {r.count("skip")} skipped, '
            f'{r.wall_s:.1f}s)')
    return line + (f' - {r.note}' if r.note else '')
