#include "report/lazy_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <limits>
#include <stdexcept>

namespace htpscope {
namespace {

using nlohmann::json;

// The three kinds of member a LazyObject has, in key order as
// nlohmann::json (a std::map) prints them.
struct MemberRef {
  const std::string* key;
  const json* small = nullptr;
  const LazyArray* array = nullptr;
  const LazyObject* object = nullptr;
};

std::vector<MemberRef> MembersInKeyOrder(const LazyObject& doc) {
  std::vector<MemberRef> refs;
  for (auto it = doc.members.begin(); it != doc.members.end(); ++it)
    refs.push_back({&it.key(), &it.value(), nullptr, nullptr});
  for (const auto& [key, array] : doc.arrays) refs.push_back({&key, nullptr, &array, nullptr});
  for (const auto& named : doc.objects)
    refs.push_back({&named.key, nullptr, nullptr, &named.value});
  std::sort(refs.begin(), refs.end(),
            [](const MemberRef& a, const MemberRef& b) { return *a.key < *b.key; });
  for (size_t i = 1; i < refs.size(); ++i)
    if (*refs[i].key == *refs[i - 1].key)
      throw std::logic_error("lazy JSON object with two members named " + *refs[i].key);
  return refs;
}

// `text` as nlohmann's dump prints a string: printable ASCII without quotes
// or backslashes as is, anything else through nlohmann itself.
void AppendJsonString(std::string_view text, json::error_handler_t handler, std::string& out) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c != '"' && c != '\\' && static_cast<unsigned char>(c) < 0x80;
  });
  if (!plain) {
    out += json(std::string(text)).dump(-1, ' ', false, handler);
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

// What precedes element `i` of a container whose elements sit at nesting
// level `depth`: a comma after the first, then (indent >= 0; < 0 prints on
// one line, as dump(-1)) a line break and the indent.
void SeparateElement(std::string& out, size_t i, int indent, int depth) {
  if (indent < 0) {
    if (i) out += ',';
    return;
  }
  out += i ? ",\n" : "\n";
  out.append(static_cast<size_t>(indent * depth), ' ');
}

// What precedes the closing bracket of a container at nesting level `depth`.
void CloseContainer(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(indent * depth), ' ');
}

// Builds a row as an nlohmann::json object.
class RowBuilder final : public JsonRow {
 public:
  void Null(std::string_view key) override { Set(key, json(nullptr)); }
  void Bool(std::string_view key, bool value) override { Set(key, json(value)); }
  void Int(std::string_view key, int64_t value) override { Set(key, json(value)); }
  void Unsigned(std::string_view key, uint64_t value) override { Set(key, json(value)); }
  void Double(std::string_view key, double value) override { Set(key, json(value)); }
  void String(std::string_view key, std::string_view value) override { Set(key, json(value)); }
  json Take() { return std::move(value_); }

 private:
  void Set(std::string_view key, json value) {
    if (!value_.emplace(std::string(key), std::move(value)).second)
      throw std::logic_error("JSON row with two members named " + std::string(key));
  }
  json value_ = json::object();
};

// Prints a row as nlohmann::json's dump(indent) prints the object: members
// in key order.  Reused from row to row, so that a row costs no allocation:
// rows of one array give the same keys in the same order, so the keys are
// compared as given with the last row's shape (not copied), sorted once per
// shape, and each member's separator, indent and quoted key are one piece.
class RowText final : public JsonRow {
 public:
  explicit RowText(json::error_handler_t handler) : handler_(handler) {}

  void Null(std::string_view key) override { Add(key, "null"); }
  void Bool(std::string_view key, bool value) override { Add(key, value ? "true" : "false"); }
  void Int(std::string_view key, int64_t value) override { AddInteger(key, value); }
  void Unsigned(std::string_view key, uint64_t value) override { AddInteger(key, value); }
  void Double(std::string_view key, double value) override {
    if (!std::isfinite(value)) return Add(key, "null");
    char digits[64];
    char* end = nlohmann::detail::to_chars(digits, digits + sizeof digits, value);
    Add(key, std::string_view(digits, static_cast<size_t>(end - digits)));
  }
  void String(std::string_view key, std::string_view value) override {
    StartMember(key);
    AppendJsonString(value, handler_, values_);
    value_ends_.push_back(values_.size());
  }

  // Appends the row given since the last call, at nesting level `depth`, to
  // `out` (indent < 0: on one line, as dump(-1)), and forgets it.
  void WriteTo(std::string& out, int indent, int depth) {
    const size_t n = value_ends_.size();
    if (n == 0) {
      out += "{}";
      return Clear();
    }
    if (!same_shape_ || n != shape_keys_.size() || indent != indent_ || depth != depth_)
      Reshape(indent, depth);
    const size_t at = out.size();
    out.resize(at + shape_bytes_ + values_.size());
    char* p = out.data() + at;
    *p++ = '{';
    for (size_t i = 0; i < n; ++i) {
      const std::string& piece = pieces_[i];
      std::memcpy(p, piece.data(), piece.size());
      p += piece.size();
      const uint32_t m = order_[i];
      const size_t begin = m ? value_ends_[m - 1] : 0;
      std::memcpy(p, values_.data() + begin, value_ends_[m] - begin);
      p += value_ends_[m] - begin;
    }
    std::memcpy(p, close_.data(), close_.size());
    p[close_.size()] = '}';
    Clear();
  }

 private:
  // Notes member `key`, whose value's JSON is appended to values_ next.  A
  // key is copied only once the row leaves the last row's shape.
  void StartMember(std::string_view key) {
    const size_t i = value_ends_.size();
    if (same_shape_ && i < shape_keys_.size() && key == shape_keys_[i]) return;
    if (same_shape_) {  // the keys before this one are the shape's
      same_shape_ = false;
      new_keys_.assign(shape_keys_.begin(), shape_keys_.begin() + static_cast<ptrdiff_t>(i));
    }
    new_keys_.emplace_back(key);
  }
  void Add(std::string_view key, std::string_view value_json) {
    StartMember(key);
    values_ += value_json;
    value_ends_.push_back(values_.size());
  }
  template <typename Integer>
  void AddInteger(std::string_view key, Integer value) {
    char digits[24];
    auto result = std::to_chars(digits, digits + sizeof digits, value);
    Add(key, std::string_view(digits, static_cast<size_t>(result.ptr - digits)));
  }

  // Makes this row's keys the shape: order_ (members in key order) and each
  // one's piece; throws std::logic_error on a key given twice.
  void Reshape(int indent, int depth) {
    const size_t n = value_ends_.size();
    if (same_shape_)  // the shape's first n keys, fewer than the shape's
      new_keys_.assign(shape_keys_.begin(), shape_keys_.begin() + static_cast<ptrdiff_t>(n));
    shape_keys_.swap(new_keys_);
    same_shape_ = false;  // matches no row until this one's order is whole
    order_.resize(n);
    for (size_t i = 0; i < n; ++i) order_[i] = static_cast<uint32_t>(i);
    std::sort(order_.begin(), order_.end(),
              [this](uint32_t a, uint32_t b) { return shape_keys_[a] < shape_keys_[b]; });
    for (size_t i = 1; i < n; ++i) {
      if (shape_keys_[order_[i]] == shape_keys_[order_[i - 1]]) {
        const std::string key = shape_keys_[order_[i]];
        shape_keys_.clear();
        Clear();
        throw std::logic_error("JSON row with two members named " + key);
      }
    }
    pieces_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      pieces_[i].clear();
      SeparateElement(pieces_[i], i, indent, depth + 1);
      AppendJsonString(shape_keys_[order_[i]], handler_, pieces_[i]);
      pieces_[i] += indent < 0 ? ":" : ": ";
    }
    close_.clear();
    CloseContainer(close_, indent, depth);
    shape_bytes_ = 2 + close_.size();  // the braces
    for (const std::string& piece : pieces_) shape_bytes_ += piece.size();
    indent_ = indent;
    depth_ = depth;
  }
  void Clear() {
    values_.clear();
    value_ends_.clear();
    new_keys_.clear();
    same_shape_ = !shape_keys_.empty();
  }

  json::error_handler_t handler_;
  std::string values_;                 // this row's values' JSON, as given
  std::vector<size_t> value_ends_;     // where each value ends in values_
  bool same_shape_ = false;            // the keys so far are the shape's first ones
  std::vector<std::string> new_keys_;  // this row's keys, once it left the shape
  // The shape: the keys of the last row written, as given; order_ holds
  // them in key order, pieces_ what precedes each value (separator, indent,
  // quoted key) at indent_ and depth_, close_ what precedes the '}'.
  std::vector<std::string> shape_keys_;
  std::vector<uint32_t> order_;
  std::vector<std::string> pieces_;
  std::string close_;
  size_t shape_bytes_ = 0;  // a row's bytes but its values': braces, pieces_, close_
  int indent_ = 0, depth_ = 0;
};

class LazyWriter {
 public:
  LazyWriter(int indent, const std::function<void(std::string_view)>& write,
             json::error_handler_t handler)
      : indent_(indent), write_(write), handler_(handler), row_(handler) {}
  void Object(const LazyObject& doc, int depth) {
    std::vector<MemberRef> refs = MembersInKeyOrder(doc);
    if (refs.empty()) return Put("{}");
    Put("{");
    for (size_t i = 0; i < refs.size(); ++i) {
      SeparateElement(buffer_, i, indent_, depth + 1);
      AppendJsonString(*refs[i].key, handler_, buffer_);
      Put(indent_ < 0 ? ":" : ": ");
      if (refs[i].small) Value(*refs[i].small, depth + 1);
      if (refs[i].array) Array(*refs[i].array, depth + 1);
      if (refs[i].object) Object(*refs[i].object, depth + 1);
    }
    CloseContainer(buffer_, indent_, depth);
    Put("}");
  }

  void Flush() {
    if (!buffer_.empty()) write_(buffer_);
    buffer_.clear();
  }

 private:
  void Array(const LazyArray& array, int depth) {
    if (array.size == 0) return Put("[]");
    Put("[");
    if (!array.object_element && array.row) return Rows(array, depth);
    for (size_t i = 0; i < array.size; ++i) {
      SeparateElement(buffer_, i, indent_, depth + 1);
      if (array.object_element)
        Object(array.object_element(i), depth + 1);
      else
        Value(array.element(i), depth + 1);
    }
    CloseContainer(buffer_, indent_, depth);
    Put("]");
  }

  // An array of rows, "[" written: its rows formatted in blocks, every
  // other block of a long array on a second core (the row functions only
  // read), the text passed on in row order.
  static constexpr size_t kBlockRows = 2048;
  void Rows(const LazyArray& array, int depth) {
    // Appends rows [begin, end) to `out`.
    auto format = [&](RowText& row, size_t begin, size_t end, std::string& out) {
      for (size_t i = begin; i < end; ++i) {
        SeparateElement(out, i, indent_, depth + 1);
        array.row(i, row);
        row.WriteTo(out, indent_, depth + 1);
      }
    };
    RowText second_row(handler_);
    std::string second_text;
    for (size_t begin = 0; begin < array.size; begin += 2 * kBlockRows) {
      const size_t middle = std::min(begin + kBlockRows, array.size);
      const size_t end = std::min(begin + 2 * kBlockRows, array.size);
      // Waited for by its destructor when this thread's block throws.
      std::future<void> second;
      if (middle < end)
        second = std::async(std::launch::async | std::launch::deferred, [&, middle, end] {
          second_text.clear();
          format(second_row, middle, end, second_text);
        });
      format(row_, begin, middle, buffer_);
      if (second.valid()) {
        second.get();
        Flush();
        write_(second_text);
      } else if (buffer_.size() >= (1u << 20)) {
        Flush();
      }
    }
    CloseContainer(buffer_, indent_, depth);
    Put("]");
  }

  // `value` dumped at indentation level `depth`: nlohmann prints it from
  // level 0, and JSON text holds line breaks only between tokens.
  void Value(const json& value, int depth) {
    std::string text = value.dump(indent_, ' ', false, handler_);
    size_t from = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
      Put(std::string_view(text).substr(from, nl + 1 - from));
      Indent(depth);
      from = nl + 1;
    }
    Put(std::string_view(text).substr(from));
  }

  void Indent(int depth) { buffer_.append(static_cast<size_t>(std::max(indent_, 0) * depth), ' '); }

  void Put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= (1u << 20)) Flush();
  }

  int indent_;
  const std::function<void(std::string_view)>& write_;
  json::error_handler_t handler_;
  std::string buffer_;
  RowText row_;
};

}  // namespace

json RowJson(const std::function<void(JsonRow&)>& write) {
  RowBuilder row;
  write(row);
  return row.Take();
}

json CapArrays(json value, size_t max_items) {
  if (value.is_array()) {
    if (value.size() > max_items)
      value.erase(value.begin() + static_cast<ptrdiff_t>(max_items), value.end());
    for (auto& item : value) item = CapArrays(std::move(item), max_items);
  } else if (value.is_object()) {
    json truncated = json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it->is_array() && it->size() > max_items) truncated[it.key()] = it->size();
      *it = CapArrays(std::move(*it), max_items);
    }
    if (!truncated.empty()) value["_truncated"] = std::move(truncated);
  }
  return value;
}

LazyArray TakeArray(LazyObject& doc, std::string_view key) {
  for (auto it = doc.arrays.begin(); it != doc.arrays.end(); ++it) {
    if (it->first != key) continue;
    LazyArray array = std::move(it->second);
    doc.arrays.erase(it);
    return array;
  }
  throw std::logic_error("lazy JSON object without an array named " + std::string(key));
}

LazyObject* FindObject(LazyObject& doc, std::string_view key) {
  for (auto& named : doc.objects)
    if (named.key == key) return &named.value;
  return nullptr;
}

namespace {

// The first min(n, size) elements of `array`, each capped at `max_items`.
json CappedElements(const LazyArray& array, size_t n, size_t max_items) {
  json items = json::array();
  for (size_t i = 0; i < std::min(n, array.size); ++i)
    items.push_back(array.object_element ? Materialize(array.object_element(i), max_items)
                                         : CapArrays(array.element(i), max_items));
  return items;
}

}  // namespace

json FirstElements(const LazyArray& array, size_t n) {
  return CappedElements(array, n, std::numeric_limits<size_t>::max());
}

json Materialize(const LazyObject& doc, size_t max_items) {
  MembersInKeyOrder(doc);  // refuses duplicate keys, as the writer does
  json out = CapArrays(doc.members, max_items);
  for (const auto& [key, array] : doc.arrays) {
    out[key] = CappedElements(array, max_items, max_items);
    if (array.size > max_items) out["_truncated"][key] = array.size;
  }
  for (const auto& named : doc.objects) out[named.key] = Materialize(named.value, max_items);
  return out;
}

void WriteLazyJson(const LazyObject& doc, int indent,
                   const std::function<void(std::string_view)>& write,
                   json::error_handler_t handler) {
  LazyWriter writer(indent, write, handler);
  writer.Object(doc, 0);
  writer.Flush();
}

void PrintLazyJson(const LazyObject& doc, int indent) {
  WriteLazyJson(doc, indent,
                [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); });
  std::fputc('\n', stdout);
}

}  // namespace htpscope
