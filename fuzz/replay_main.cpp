// The replay driver of a fuzz target in the normal build (no libFuzzer): feeds
// every file of the folders (or files) named on the command line, in name
// order, to LLVMFuzzerTestOneInput, after LLVMFuzzerInitialize. ctest runs it
// over the target's seed corpus and its regressions (fuzz/CMakeLists.txt), so
// every input a fuzzer once failed on keeps being checked. A failure aborts
// inside the target; the driver names each input before running it, so the
// log says which one.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    fs::path path = argv[i];
    std::error_code error;
    if (fs::is_directory(path, error)) {
      for (const fs::directory_entry &entry : fs::directory_iterator(path))
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
          inputs.push_back(entry.path());
    } else if (fs::is_regular_file(path, error)) {
      inputs.push_back(path);
    }
    // A folder that does not exist (no regressions yet) is no input.
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs in the folders given\n");
    return 1;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  auto start = std::chrono::steady_clock::now();
  for (const fs::path &path : inputs) {
    std::ifstream file(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    std::fflush(stderr);
    auto before = std::chrono::steady_clock::now();
    // libFuzzer passes a non-null pointer even for an empty input.
    static const uint8_t kEmpty = 0;
    LLVMFuzzerTestOneInput(bytes.empty() ? &kEmpty : reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
    std::fprintf(stderr, "replay:   done in %.1f ms\n", ms);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("replay: %zu inputs passed in %.1f s\n", inputs.size(), seconds);
  return 0;
}
