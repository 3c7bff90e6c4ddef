#include "Report.h"

#include <cmath>
#include <utility>

namespace bench {
namespace {

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// CSV fields are quoted always; quotes inside are doubled (RFC 4180).
std::string csvString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// JSON has no NaN/Infinity: a value that is not finite is written as null.
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

const char *statusName(Status status) {
  switch (status) {
    case Status::Pass:
      return "PASS";
    case Status::Fail:
      return "FAIL";
    case Status::Error:
      return "ERROR";
  }
  return "ERROR";
}

Reporter::Reporter(std::string suite, std::string platform, std::string device, std::string format)
    : suite_(std::move(suite)),
      platform_(std::move(platform)),
      device_(std::move(device)),
      format_(std::move(format)) {}

void Reporter::emit(const Record &r) {
  any_fail_ |= r.status == Status::Fail;
  any_error_ |= r.status == Status::Error;
  bool timed = r.status == Status::Pass;
  if (format_ == "csv") {
    if (!header_done_)
      std::printf(
          "suite,platform,device,bench,size,status,value,unit,higher_is_better,median_ms,min_ms,"
          "first_ms,reps,detail\n");
    header_done_ = true;
    std::printf("%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%d,%s\n", suite_.c_str(),
                csvString(platform_).c_str(), csvString(device_).c_str(), r.bench.c_str(),
                csvString(r.size).c_str(), statusName(r.status),
                timed ? number(r.value).c_str() : "", r.unit.c_str(), r.higher_is_better ? 1 : 0,
                timed ? number(r.median_ms).c_str() : "", timed ? number(r.min_ms).c_str() : "",
                number(r.first_ms).c_str(), r.reps, csvString(r.detail).c_str());
  } else {
    std::printf(
        "{\"suite\":%s,\"platform\":%s,\"device\":%s,\"bench\":%s,\"size\":%s,\"status\":\"%s\","
        "\"value\":%s,\"unit\":%s,\"higher_is_better\":%s,\"median_ms\":%s,\"min_ms\":%s,"
        "\"first_ms\":%s,\"reps\":%d,\"detail\":%s}\n",
        jsonString(suite_).c_str(), jsonString(platform_).c_str(), jsonString(device_).c_str(),
        jsonString(r.bench).c_str(), jsonString(r.size).c_str(), statusName(r.status),
        timed ? number(r.value).c_str() : "null", jsonString(r.unit).c_str(),
        r.higher_is_better ? "true" : "false", timed ? number(r.median_ms).c_str() : "null",
        timed ? number(r.min_ms).c_str() : "null", number(r.first_ms).c_str(), r.reps,
        jsonString(r.detail).c_str());
  }
  std::fflush(stdout);
  if (timed)
    std::fprintf(stderr, "%-20s PASS  %10.4g %-9s median %9.3f ms  (%s)\n", r.bench.c_str(),
                 r.value, r.unit.c_str(), r.median_ms, r.size.c_str());
  else  // the first line only: build logs go to the machine-readable record
    std::fprintf(stderr, "%-20s %-5s %s (%s)\n", r.bench.c_str(), statusName(r.status),
                 r.detail.substr(0, r.detail.find('\n')).c_str(), r.size.c_str());
}

int Reporter::exitCode() const { return any_error_ ? 2 : any_fail_ ? 1 : 0; }

}  // namespace bench
