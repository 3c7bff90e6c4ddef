#include "Options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace bench {
namespace {

// Accepts only a whole decimal number in [min, max]; "12abc" or "" is an error.
uint64_t parseNumber(const std::string &text, const std::string &what, uint64_t min, uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(what + " wants a number, got '" + text + "'");
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < min || value > max)
    throw UsageError(what + " must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "], got " + text);
  return value;
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

void parseSize(Options &options, const std::string &spec) {
  auto equals = spec.find('=');
  if (equals == std::string::npos || equals == 0)
    throw UsageError("--size wants name=value, got '" + spec + "'");
  options.sizes[spec.substr(0, equals)] =
      parseNumber(spec.substr(equals + 1), "--size " + spec.substr(0, equals), 1, 1ull << 40);
}

}  // namespace

Options parseOptions(int argc, char **argv, bool native) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--bench") {
      auto names = splitList(value());
      options.benches.insert(options.benches.end(), names.begin(), names.end());
    } else if (arg == "--reps") {
      options.reps = parseNumber(value(), arg, 1, 10000);
    } else if (arg == "--size") {
      parseSize(options, value());
    } else if (arg == "--smoke") {
      options.smoke = true;
    } else if (arg == "--list") {
      options.list = true;
    } else if (arg == "--format") {
      options.format = value();
      if (options.format != "jsonl" && options.format != "csv")
        throw UsageError("--format is jsonl or csv");
    } else if (arg == "--latency-samples") {
      options.latency_samples = parseNumber(value(), arg, 1, 1000000);
    } else if (!native && arg == "--platform") {
      options.platform = value();
    } else if (!native && arg == "--build-reps") {
      options.build_reps = parseNumber(value(), arg, 1, 100);
    } else if (!native && arg == "--build-probe") {
      options.build_probe = true;
    } else if (native && arg == "--threads") {
      options.threads = parseNumber(value(), arg, 1, 4096);
    } else if (arg == "-h" || arg == "--help") {
      throw UsageError("");
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  if (options.smoke) {
    // Smoke mode checks results, it does not measure: one timed run is enough.
    options.reps = 1;
    options.build_reps = 1;
    options.latency_samples = std::min(options.latency_samples, 20);
  }
  return options;
}

std::string usageText(const char *program, bool native) {
  std::string text = std::string("usage: ") + program + (native ? "" : " [--platform NAME]") +
                     " [--bench a,b,...] [--reps N] [--size name=N]... [--smoke]\n"
                     "       [--format jsonl|csv] [--latency-samples N] [--list]" +
                     (native ? " [--threads N]\n" : " [--build-reps N]\n");
  text +=
      "Every result is verified against a host reference; a wrong result is reported as FAIL\n"
      "and not timed. One JSON object (or CSV row) per benchmark goes to stdout, a summary to\n"
      "stderr. Exit status: 0 all passed, 1 some result was wrong, 2 some benchmark failed to "
      "run.\n";
  return text;
}

uint64_t sizeFor(const Options &options, const BenchInfo &info) {
  auto override = options.sizes.find(info.name);
  if (override == options.sizes.end()) return options.smoke ? info.smoke_size : info.default_size;
  if (override->second > info.max_size)
    throw UsageError("--size " + info.name + " is at most " + std::to_string(info.max_size) + " (" +
                     info.size_meaning + ")");
  if (override->second % info.size_multiple != 0)
    throw UsageError("--size " + info.name + " must be a multiple of " +
                     std::to_string(info.size_multiple) + " (" + info.size_meaning + ")");
  return override->second;
}

bool selected(const Options &options, const std::string &name) {
  return options.benches.empty() ||
         std::find(options.benches.begin(), options.benches.end(), name) != options.benches.end();
}

void checkNames(const Options &options, const std::vector<BenchInfo> &benches) {
  auto known = [&](const std::string &name) {
    return std::any_of(benches.begin(), benches.end(),
                       [&](const BenchInfo &info) { return info.name == name; });
  };
  for (const auto &name : options.benches)
    if (!known(name)) throw UsageError("no benchmark named '" + name + "' (see --list)");
  for (const auto &[name, size] : options.sizes)
    if (!known(name)) throw UsageError("--size names no benchmark: '" + name + "'");
}

void printList(const std::vector<BenchInfo> &benches) {
  for (const auto &info : benches)
    std::printf("%-22s %-10s size %llu (smoke %llu) %s\n    %s\n", info.name.c_str(),
                info.unit.c_str(), static_cast<unsigned long long>(info.default_size),
                static_cast<unsigned long long>(info.smoke_size), info.size_meaning.c_str(),
                info.what.c_str());
}

int handleCommandLine(int argc, char **argv, bool native, const std::vector<BenchInfo> &benches,
                      Options &options) {
  try {
    options = parseOptions(argc, argv, native);
    checkNames(options, benches);
    for (const auto &info : benches)
      if (selected(options, info.name)) sizeFor(options, info);  // validates --size early
  } catch (const UsageError &error) {
    bool help = std::string(error.what()).empty();
    std::fprintf(help ? stdout : stderr, "%s%s%s", error.what(), help ? "" : "\n",
                 usageText(argv[0], native).c_str());
    return help ? 0 : 2;
  }
  if (options.list) {
    printList(benches);
    return 0;
  }
  return -1;
}

}  // namespace bench
