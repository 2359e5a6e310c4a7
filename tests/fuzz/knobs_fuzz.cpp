// libFuzzer target: the knob codec never crashes or hangs, and whatever it
// accepts prints back to a string it accepts again, to the same schedule.
#include "schedule/Schedule.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  attncc::KnobError err;
  std::optional<attncc::Schedule> s = attncc::parseKnobs(text, err);
  if (!s) {
    if (err.message().empty())
      std::abort(); // every refusal says why
    return 0;
  }
  std::string printed = attncc::printKnobs(*s);
  std::optional<attncc::Schedule> again = attncc::parseKnobs(printed, err);
  if (!again || !(*again == *s) || attncc::printKnobs(*again) != printed)
    std::abort();
  return 0;
}
