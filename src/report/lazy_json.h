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
#include <cstdint>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace htpscope {

struct LazyObject;

// One flat JSON object (every member a scalar: null, bool, number, string),
// given member by member in any order; it is printed, as nlohmann::json
// prints an object, in key order.  A key given twice is a programming error
// (std::logic_error when printed).  Long arrays of rows are written through
// this interface without building an nlohmann::json per row.
class JsonRow {
 public:
  virtual void Null(std::string_view key) = 0;
  virtual void Bool(std::string_view key, bool value) = 0;
  virtual void Int(std::string_view key, int64_t value) = 0;
  virtual void Unsigned(std::string_view key, uint64_t value) = 0;
  virtual void Double(std::string_view key, double value) = 0;  // NaN and ±inf print null
  virtual void String(std::string_view key, std::string_view value) = 0;

  // An integer or floating-point value, as nlohmann::json(value) holds it.
  template <typename T>
  void Number(std::string_view key, T value) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    if constexpr (std::is_floating_point_v<T>)
      Double(key, static_cast<double>(value));
    else if constexpr (std::is_signed_v<T>)
      Int(key, static_cast<int64_t>(value));
    else
      Unsigned(key, static_cast<uint64_t>(value));
  }
  // The number, or null when absent (as OptionalJson).
  template <typename T>
  void Optional(std::string_view key, const std::optional<T>& value) {
    if (value)
      Number(key, *value);
    else
      Null(key);
  }

 protected:
  ~JsonRow() = default;
};

// Writes row i of an array through a JsonRow.  For a long array it is
// called from two threads at once (each with its own JsonRow): it must only
// read what it prints.
using RowFunction = std::function<void(size_t, JsonRow&)>;

// The row `write` gives, as an nlohmann::json object.
nlohmann::json RowJson(const std::function<void(JsonRow&)>& write);

// Elements are built by `element`, or, when an element itself holds a long
// array, by `object_element`; each is called with 0 <= i < size.  An array
// of flat rows also has `row`, which the writer uses instead of `element`
// (`element` then builds the same object through RowJson).
struct LazyArray {
  size_t size = 0;
  std::function<nlohmann::json(size_t)> element;
  std::function<LazyObject(size_t)> object_element;
  RowFunction row;
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
    arrays.emplace_back(std::move(key), LazyArray{size, std::move(element), nullptr, nullptr});
  }
  void AddObjectArray(std::string key, size_t size,
                      std::function<LazyObject(size_t)> object_element) {
    arrays.emplace_back(std::move(key),
                        LazyArray{size, nullptr, std::move(object_element), nullptr});
  }
  // An array of flat rows (JsonRow).
  void AddRowArray(std::string key, size_t size, RowFunction row) {
    auto element = [row](size_t i) { return RowJson([&](JsonRow& r) { row(i, r); }); };
    arrays.emplace_back(std::move(key), LazyArray{size, std::move(element), nullptr, row});
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

// Writes `doc` as nlohmann::json::dump(indent) would print the materialized
// document (keys in order, the same spacing; indent < 0: on one line, with
// no spaces between tokens), passing the text to `write` in
// pieces of about 1 MB.  Invalid UTF-8 in a string is handled by `handler`
// as in nlohmann's dump.
void WriteLazyJson(
    const LazyObject& doc, int indent, const std::function<void(std::string_view)>& write,
    nlohmann::json::error_handler_t handler = nlohmann::json::error_handler_t::strict);

// WriteLazyJson to stdout, followed by a line break.
void PrintLazyJson(const LazyObject& doc, int indent = 2);

}  // namespace htpscope
