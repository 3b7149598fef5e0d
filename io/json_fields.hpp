// Typed reads of JSON that tverify did not write itself (certificates, checkpoints): each check throws a UsageError
// naming the file, the field and what the field must be, so bad input is exit 2 with one line, never a type error.
#pragma once

#include "io/errors.hpp"
#include "io/json.hpp"

#include <cstdint>
#include <set>
#include <string>

namespace tverify {

struct FieldCheck {
  std::string what;                      // the file, as messages name it: "certificate 'a.json'"
  mutable std::set<std::string> read{};  // every field a check has looked at, by its path

  [[noreturn]] void fail(const std::string& field, const std::string& must) const {
    throw UsageError(what + ": field \"" + field + "\" must be " + must);
  }
  const Json& need(const Json& object, const std::string& key, const std::string& field) const {
    if (!object.is_object() || !object.contains(key)) throw UsageError(what + " lacks the field \"" + field + "\"");
    read.insert(field);
    return object[key];
  }
  void string(const Json& object, const std::string& key, const std::string& field, bool required = true) const {
    if (!object.contains(key) && !required) return;
    if (!need(object, key, field).is_string()) fail(field, "a string");
  }
  void nonempty_string(const Json& object, const std::string& key, const std::string& field) const {
    const Json& v = need(object, key, field);
    if (!v.is_string() || v.get<std::string>().empty()) fail(field, "a non-empty string");
  }
  // A whole number in [0, max]; returns it (0 when absent and not required).
  std::uint64_t count(const Json& object, const std::string& key, const std::string& field, std::uint64_t max,
                      bool required = true, std::uint64_t min = 0) const {
    if (!object.contains(key) && !required) return 0;
    const Json& v = need(object, key, field);
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
        v.get<std::uint64_t>() > max || v.get<std::uint64_t>() < min)
      fail(field, "a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return v.get<std::uint64_t>();
  }
  void boolean(const Json& object, const std::string& key, const std::string& field, bool required = false) const {
    if (!object.contains(key) && !required) return;
    if (!need(object, key, field).is_boolean()) fail(field, "true or false");
  }
  // Refuses a field of `object` (at `field`) that no check has looked at: a field a reader does not know.
  void no_other_fields(const Json& object, const std::string& field) const {
    for (const auto& [key, value] : object.items())
      if (!read.count(field + "." + key)) fail(field + "." + key, "absent (it is no field of " + field + ")");
  }
  void number(const Json& object, const std::string& key, const std::string& field, bool required = false) const {
    if (!object.contains(key) && !required) return;
    const Json& v = need(object, key, field);
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() < 1e300)) fail(field, "a finite number >= 0");
  }
};

}  // namespace tverify
