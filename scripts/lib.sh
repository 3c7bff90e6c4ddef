# shellcheck shell=bash
# Shared by scripts/demo and scripts/test: the Debian 12 packages Lockstep needs
# and the Release build into build/. Source it; do not run it.

LOCKSTEP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# LOCKSTEP_BUILD_DIR overrides the build folder (default build/).
LOCKSTEP_BUILD="${LOCKSTEP_BUILD_DIR:-${LOCKSTEP_ROOT}/build}"

# Build tools, LLVM/Clang 19 and oneTBB, the ICD loader and headers, PoCL (a
# second platform to compare with), GoogleTest. LLVM 19's CMake package
# (LLVMConfig.cmake / LLVMExports.cmake) links LLVMSupport against ZLIB::ZLIB
# and zstd::libzstd_shared and looks for libffi, libedit, libxml2 and libcurl:
# without their -dev packages its targets do not resolve. libomp-19-dev:
# clang-19's OpenMP, which bench/ needs when the fuzzing build (scripts/fuzz)
# configures the tree with clang-19 (libFuzzer itself comes with clang-19).
# llvm-spirv-15: the SPIR-V translator clCreateProgramWithIL's programs go
# through (docs/spirv.md); spirv-headers: SPIR-V's enumerants and grammar
# for the compiler; spirv-tools: spirv-as, which assembles the SPIR-V tests'
# modules.
LOCKSTEP_PACKAGES=(
  cmake ninja-build ccache g++ python3
  llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libomp-19-dev
  libtbb-dev opencl-headers ocl-icd-opencl-dev clinfo pocl-opencl-icd libgtest-dev
  zlib1g-dev libzstd-dev libedit-dev libffi-dev libxml2-dev libcurl4-openssl-dev
  llvm-spirv-15 spirv-headers spirv-tools
)

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo "$@"
  fi
}

# Installs whatever of LOCKSTEP_PACKAGES is missing (nothing, and no network,
# when all are there already).
install_dependencies() {
  local missing=() package
  for package in "${LOCKSTEP_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "${package}" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("${package}")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "== dependencies: all installed"
    return
  fi
  echo "== installing: ${missing[*]}"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
}

# Configures (once) and builds everything, Release, with Ninja, into build/.
# Extra arguments go to the configure step (scripts/test --sanitize passes
# -DLOCKSTEP_SANITIZE=...).
build_lockstep() {
  echo "== building into ${LOCKSTEP_BUILD}"
  cmake -G Ninja -S "${LOCKSTEP_ROOT}" -B "${LOCKSTEP_BUILD}" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "${LOCKSTEP_BUILD}" --parallel "$(nproc)"
}
