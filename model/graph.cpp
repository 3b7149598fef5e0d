#include "model/graph.hpp"

#include <algorithm>
#include <iterator>

namespace tverify::model {

const Attribute* Node::attribute(const std::string& key) const {
  const auto it = attributes.find(key);
  return it == attributes.end() ? nullptr : &it->second;
}

std::int64_t Node::int_attribute(const std::string& key, std::int64_t fallback) const {
  const Attribute* a = attribute(key);
  if (!a) return fallback;
  if (a->kind != Attribute::Kind::Int) throw ModelError(label() + ": attribute '" + key + "' must be an integer");
  return a->i;
}

Exact Node::float_attribute(const std::string& key, const Exact& fallback) const {
  const Attribute* a = attribute(key);
  if (!a) return fallback;
  if (a->kind != Attribute::Kind::Float) throw ModelError(label() + ": attribute '" + key + "' must be a float");
  return a->f;
}

std::optional<std::int64_t> Graph::fixed_length() const {
  if (input_dims.empty()) return std::nullopt;
  return input_dims.back().size;
}

void Graph::drop_unread_constants() {
  std::vector<bool> read(static_cast<std::size_t>(std::max(slot_count, 0)), false);
  for (const auto& node : nodes)
    for (int slot : node.inputs)
      if (slot >= 0 && slot < slot_count) read[static_cast<std::size_t>(slot)] = true;
  for (auto it = constants.begin(); it != constants.end();)
    it = it->first >= 0 && it->first < slot_count && !read[static_cast<std::size_t>(it->first)] &&
                 it->first != output_slot
             ? constants.erase(it)
             : std::next(it);
}

}  // namespace tverify::model
