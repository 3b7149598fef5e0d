// Text for LaTeX: every special character escaped in forms every font encoding has, the symbols of tverify's texts
// in math mode, and line breaks allowed inside long identifiers. Shared by report tables and plot labels.
#pragma once

#include <cstddef>
#include <string>

namespace tverify {

// Text with every LaTeX special character escaped (# $ % & _ { } \ ^ ~ < > |), the symbols of tverify's texts (tau,
// <=, sqrt, ...) in math mode, anything else outside ASCII named by its code point, and break points after '.', '_',
// '/' and '=' inside long identifiers.
std::string latex_escape(const std::string& text);

// Whether latex_escape allows a line break after text[i]: after '.', '_', '/' or '=' followed by a letter.
bool breaks_after(const std::string& text, std::size_t i);

}  // namespace tverify
