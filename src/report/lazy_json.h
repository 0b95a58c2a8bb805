// JSON documents too big to hold: an object whose long arrays are described
// by their length and a function that builds element i, so that a command's
// --json output can be written element by element (memory bounded by one
// element, not by the document) and a capped copy can be built without
// building what the cap drops.
//
// Both ways of turning a LazyObject into output equal what nlohmann::json
// would give for the whole document: WriteLazyJson prints the text of
// `Materialize(doc).dump(indent)`, and `Materialize(doc, n)` equals
// `CapArrays(Materialize(doc), n)`.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace htpscope {

struct LazyObject;

// Elements are built by `element`, or, when an element itself holds a long
// array, by `object_element`; each is called with 0 <= i < size.
struct LazyArray {
  size_t size = 0;
  std::function<nlohmann::json(size_t)> element;
  std::function<LazyObject(size_t)> object_element;
};

struct NamedLazyObject;

struct LazyObject {
  nlohmann::json members = nlohmann::json::object();  // the small members, held
  std::vector<std::pair<std::string, LazyArray>> arrays;
  // Not std::pair: its traits would ask whether LazyObject is
  // default-constructible while that constructor is being defined.
  std::vector<NamedLazyObject> objects;

  void AddObject(std::string key, LazyObject object);

  void AddArray(std::string key, size_t size, std::function<nlohmann::json(size_t)> element) {
    arrays.emplace_back(std::move(key), LazyArray{size, std::move(element), nullptr});
  }
  void AddObjectArray(std::string key, size_t size,
                      std::function<LazyObject(size_t)> object_element) {
    arrays.emplace_back(std::move(key), LazyArray{size, nullptr, std::move(object_element)});
  }
};

struct NamedLazyObject {
  std::string key;
  LazyObject value;
};

inline void LazyObject::AddObject(std::string key, LazyObject object) {
  objects.push_back(NamedLazyObject{std::move(key), std::move(object)});
}

// Removes the lazy array `key` from `doc` and returns it; throws
// std::logic_error when `doc` has no such lazy array.
LazyArray TakeArray(LazyObject& doc, std::string_view key);

// The nested lazy object `key` of `doc`, or nullptr when `doc` has none
// (a null or small member of that name is not one).
LazyObject* FindObject(LazyObject& doc, std::string_view key);

// The first min(n, size) elements of `array`, built (object elements
// materialized whole).
nlohmann::json FirstElements(const LazyArray& array, size_t n);

// Cuts every array in `value` (at any depth) to its first `max_items`
// elements; the object holding a cut array records the full length under
// "_truncated": {"<key>": total}, which the report page shows.
nlohmann::json CapArrays(nlohmann::json value, size_t max_items);

// The whole document, arrays cut as CapArrays(…, max_items) would cut them,
// without building the elements it drops.
nlohmann::json Materialize(const LazyObject& doc,
                           size_t max_items = std::numeric_limits<size_t>::max());

// Writes `doc` as nlohmann::json::dump(indent) (indent >= 0) would print the materialized
// document (keys in order, the same spacing), passing the text to `write` in
// pieces of about 1 MB.  Invalid UTF-8 in a string is handled by `handler`
// as in nlohmann's dump.
void WriteLazyJson(
    const LazyObject& doc, int indent, const std::function<void(std::string_view)>& write,
    nlohmann::json::error_handler_t handler = nlohmann::json::error_handler_t::strict);

// WriteLazyJson to stdout, followed by a line break.
void PrintLazyJson(const LazyObject& doc, int indent = 2);

}  // namespace htpscope
