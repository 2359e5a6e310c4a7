// libFuzzer target: the JSON problem reader never crashes or throws, and what
// it accepts is valid and survives a round trip through problemToJson.
#include "runtime/problem/Problem.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  attncc::ProblemError err;
  std::optional<attncc::Problem> p = attncc::problemFromJson(text, err);
  if (!p) {
    if (err.message().empty())
      std::abort();
    return 0;
  }
  if (attncc::validate(*p))
    std::abort(); // accepted means valid
  std::optional<attncc::Problem> again = attncc::problemFromJson(attncc::problemToJson(*p), err);
  if (!again || !(*again == *p))
    std::abort();
  return 0;
}
