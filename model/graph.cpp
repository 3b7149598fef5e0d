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

void Graph::drop_dead_nodes() {
  std::vector<bool> live(static_cast<std::size_t>(std::max(slot_count, 0)), false);
  if (output_slot >= 0 && output_slot < slot_count) live[static_cast<std::size_t>(output_slot)] = true;
  std::vector<bool> kept(nodes.size(), false);
  for (std::size_t k = nodes.size(); k-- > 0;) {  // topological order: every reader of a node's outputs comes after it
    const Node& node = nodes[k];
    kept[k] = std::any_of(node.outputs.begin(), node.outputs.end(),
                          [&](int s) { return s >= 0 && s < slot_count && live[static_cast<std::size_t>(s)]; });
    if (!kept[k]) continue;
    for (int s : node.inputs)
      if (s >= 0 && s < slot_count) live[static_cast<std::size_t>(s)] = true;
  }
  std::vector<Node> live_nodes;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (kept[k]) live_nodes.push_back(std::move(nodes[k]));
  nodes = std::move(live_nodes);
}

}  // namespace tverify::model
