"""The platform the suites see (a vendors folder holding only Lockstep, a
snapshot of its driver, a preflight that the loader sees exactly it) and the
run's context (commits, machine, command) for the reports."""

import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

from .model import REPO_ROOT


def find_icd(requested):
    candidates = [requested] if requested else [
        os.path.join(REPO_ROOT, 'build', 'icd', 'lockstep.icd'),
        '/etc/OpenCL/vendors/lockstep.icd',
    ]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise SystemExit('no lockstep.icd found (tried ' + ', '.join(candidates) +
                     '); pass --icd PATH')


def snapshot_library(icd, vendors):
    """The library the .icd names, copied into the results folder when it is
    a file path, so that a rebuild during a long run (a team shares build
    trees) cannot swap the driver under the suites halfway through."""
    with open(icd, encoding='utf-8') as f:
        library = f.read().strip()
    if not os.path.isabs(library) or not os.path.isfile(library):
        return library  # a name the loader resolves through the library path
    copy = os.path.join(vendors, os.path.basename(library))
    shutil.copy2(library, copy)
    return copy


def isolated_env(icd, out_dir, args):
    """The environment of every CTS process: one vendors folder holding only
    lockstep.icd. A folder (not the .icd file itself) because both ocl-icd and
    the Khronos loader accept a folder in OCL_ICD_VENDORS."""
    vendors = os.path.join(out_dir, 'icd-vendors')
    shutil.rmtree(vendors, ignore_errors=True)
    os.makedirs(vendors)
    with open(os.path.join(vendors, 'lockstep.icd'), 'w', encoding='utf-8') as f:
        f.write(snapshot_library(icd, vendors) + '\n')
    env = dict(os.environ)
    for var in ('OCL_ICD_FILENAMES', 'OPENCL_LAYERS', 'OCL_ICD_DEFAULT_PLATFORM',
                'CL_WIMPY_MODE'):
        env.pop(var, None)  # each would let something else in or change the run
    env.update({
        'OCL_ICD_VENDORS': vendors,
        'OPENCL_VENDOR_PATH': vendors,
        'CL_PLATFORM_INDEX': '0',
        'CL_DEVICE_INDEX': '0',
        'CL_DEVICE_TYPE': args.device_type,
    })
    if args.quick:
        env['CL_WIMPY_MODE'] = '1'  # the harness's reduced ("wimpy") mode
    return env


PREFLIGHT = r'''
import ctypes, json, sys
cl = ctypes.CDLL(sys.argv[1])
def info(fn, obj, param):
    size = ctypes.c_size_t()
    if fn(obj, param, 0, None, ctypes.byref(size)) != 0:
        return '?'
    buf = ctypes.create_string_buffer(size.value)
    fn(obj, param, size, buf, None)
    return buf.value.decode(errors='replace')
n = ctypes.c_uint()
err = cl.clGetPlatformIDs(0, None, ctypes.byref(n))
if err != 0 or n.value == 0:
    print(json.dumps({'error': 'clGetPlatformIDs: %d, %d platforms' % (err, n.value)}))
    sys.exit(0)
ids = (ctypes.c_void_p * n.value)()
cl.clGetPlatformIDs(n, ids, None)
out = []
for p in ids:
    nd = ctypes.c_uint()
    cl.clGetDeviceIDs(ctypes.c_void_p(p), ctypes.c_uint64(0xFFFFFFFF), 0, None, ctypes.byref(nd))
    devs = (ctypes.c_void_p * max(nd.value, 1))()
    cl.clGetDeviceIDs(ctypes.c_void_p(p), ctypes.c_uint64(0xFFFFFFFF), nd, devs, None)
    out.append({'name': info(cl.clGetPlatformInfo, ctypes.c_void_p(p), 0x0902),
                'version': info(cl.clGetPlatformInfo, ctypes.c_void_p(p), 0x0901),
                'devices': [info(cl.clGetDeviceInfo, ctypes.c_void_p(d), 0x102B)
                            for d in devs[:nd.value]]})
print(json.dumps({'platforms': out}))
'''


def loader_library(cts_dir):
    """The libOpenCL the CTS was linked against, from its CMake cache."""
    cache = read_cmake_cache(cts_dir)
    lib_dir, lib = cache.get('CL_LIB_DIR', ''), cache.get('OPENCL_LIBRARIES', 'OpenCL')
    for candidate in (f'{lib_dir}/lib{lib}.so', f'{lib_dir}/lib{lib}.so.1'):
        if lib_dir and os.path.isfile(candidate):
            return candidate
    return 'libOpenCL.so.1'


def preflight(cts_dir, env):
    """Asks the loader, in the CTS's environment, which platforms it sees: the
    run is only meaningful if that is exactly one, ours."""
    proc = subprocess.run([sys.executable, '-c', PREFLIGHT, loader_library(cts_dir)],
                          env=env, capture_output=True, text=True, timeout=120)
    try:
        seen = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SystemExit(f'preflight crashed (exit {proc.returncode}):\n{proc.stderr}')
    if 'error' in seen or len(seen['platforms']) != 1:
        raise SystemExit(f'preflight: the loader must see exactly Lockstep, saw {seen}')
    return seen['platforms'][0]


def read_cmake_cache(cts_dir):
    values = {}
    try:
        with open(os.path.join(cts_dir, 'CMakeCache.txt'), encoding='utf-8') as f:
            for line in f:
                match = re.match(r'^(\w+):\w+=(.*)$', line.strip())
                if match:
                    values[match.group(1)] = match.group(2)
    except OSError:
        pass
    return values


def git_commit(folder):
    try:
        return subprocess.run(['git', '-C', folder, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def cts_commit(cts_dir, override):
    """The CTS source commit, found through the build's CMake cache."""
    if override:
        return override
    source = read_cmake_cache(cts_dir).get('CLConform_SOURCE_DIR')
    return (git_commit(source) if source else None) or 'unknown'


def lockstep_commit():
    commit = git_commit(REPO_ROOT)
    if not commit:
        return 'unknown'
    dirty = subprocess.run(['git', '-C', REPO_ROOT, 'status', '--porcelain',
                            '--untracked-files=no'], capture_output=True, text=True).stdout.strip()
    return commit + (' (with uncommitted changes)' if dirty else '')


def cpu_model():
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or 'unknown CPU'


def command_name():
    """This script as a user in the repository root would type it."""
    path = os.path.abspath(sys.argv[0])
    return os.path.relpath(path, REPO_ROOT) if path.startswith(REPO_ROOT + os.sep) else sys.argv[0]


def run_context(args, subset_path, cts_dir, seen_platform, began, wall_s, commit):
    return {
        'date': began.strftime('%Y-%m-%d %H:%M UTC'),
        'command': shlex.join([command_name()] + sys.argv[1:]),
        'cts_build': cts_dir,
        'cts_commit': cts_commit(cts_dir, args.cts_commit),
        'lockstep_commit': commit,
        'subset': os.path.relpath(subset_path, REPO_ROOT) if subset_path.startswith(REPO_ROOT)
                  else subset_path,
        'quick': args.quick,
        'machine': f'{cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} '
                   f'{platform.release()}',
        'platform': seen_platform,
        'wall_s': wall_s,
    }
