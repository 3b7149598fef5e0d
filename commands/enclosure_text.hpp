// Printed enclosures at a chosen number of significant digits. Certificates keep every digit (enough to round-trip
// each endpoint); what a person reads on the terminal shows `[lo, hi]` with lo rounded down and hi rounded up to the
// digits asked, so the shorter interval still contains the longer one.
#pragma once

#include <string>

namespace tverify {

// The printed enclosures' default number of significant digits (`--digits`).
constexpr int default_enclosure_digits = 6;

// `text` with every enclosure "[lo, hi]" whose endpoints are decimal numbers with more than `digits` significant
// digits rewritten outward to `digits` digits (MPFR, directed rounding). digits = 0 leaves the text as it is.
std::string with_short_enclosures(const std::string& text, int digits);

}  // namespace tverify
