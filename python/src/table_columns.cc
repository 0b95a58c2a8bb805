// A run table's columns as NumPy arrays, filled cell by cell from C++
// through the schema's CellSink interface: no Python object per number, one
// str object per distinct text.
#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>
#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "module.h"

namespace htpscope::python {
namespace {

// One str object per distinct text of a table (op names repeat across
// millions of slices).
PyObject* IncRef(PyObject* object) {
  Py_INCREF(object);
  return object;
}

class TextInterner {
 public:
  // A new reference to the str holding `text` (invalid UTF-8 replaced).
  PyObject* NewRef(std::string_view text) {
    // Consecutive rows usually repeat the text (slices of one op instance).
    if (last_ && text == last_text_) return IncRef(last_);
    // absl takes absl::string_view, which need not be std::string_view.
    auto it = strings_.find(absl::string_view(text.data(), text.size()));
    if (it == strings_.end()) {
      PyObject* str =
          PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
      if (!str) throw py::error_already_set();
      it = strings_.emplace(std::string(text), py::reinterpret_steal<py::object>(str)).first;
    }
    last_text_ = it->first;
    last_ = it->second.ptr();
    return IncRef(last_);
  }

 private:
  absl::flat_hash_map<std::string, py::object> strings_;
  // A key of strings_: slots move when the map grows, but each insertion resets it.
  std::string_view last_text_;
  PyObject* last_ = nullptr;
};

// Fills one column.  A cell of another type than the column's is a bug of
// the schema, reported as such.
class ColumnSink : public CellSink {
 public:
  ColumnSink(const RunTable& table, const TableColumn& column, size_t rows, TextInterner& interner)
      : table_(table), column_(column), rows_(rows), interner_(interner) {
    switch (column.type) {
      case ColumnType::kInt64:
        values_ = py::array_t<int64_t>(static_cast<py::ssize_t>(rows));
        ints_ = static_cast<int64_t*>(values_.mutable_data());
        break;
      case ColumnType::kDouble:
        values_ = py::array_t<double>(static_cast<py::ssize_t>(rows));
        reals_ = static_cast<double*>(values_.mutable_data());
        break;
      case ColumnType::kBool:
        values_ = py::array_t<bool>(static_cast<py::ssize_t>(rows));
        bools_ = static_cast<bool*>(values_.mutable_data());
        break;
      case ColumnType::kText:
        // numpy.empty fills an object array with None (each a reference).
        values_ = py::module_::import("numpy").attr("empty")(rows, py::arg("dtype") = "object");
        texts_ = static_cast<PyObject**>(values_.mutable_data());
        break;
    }
  }

  void Fill(const Run& run) {
    for (row_ = 0; row_ < rows_; ++row_) column_.cell(run, row_, *this);
  }

  py::tuple Result() {
    return py::make_tuple(column_.name, ColumnTypeName(column_.type), values_,
                          mask_ ? mask_ : py::object(py::none()));
  }

  void Null() override {
    switch (column_.type) {
      case ColumnType::kInt64:
        ints_[row_] = 0;
        MarkNull();
        break;
      case ColumnType::kDouble:
        reals_[row_] = std::numeric_limits<double>::quiet_NaN();
        break;
      case ColumnType::kBool:
        bools_[row_] = false;
        MarkNull();
        break;
      case ColumnType::kText:
        break;  // stays None
    }
  }
  void Int(int64_t value) override {
    if (column_.type == ColumnType::kInt64)
      ints_[row_] = value;
    else if (column_.type == ColumnType::kBool)
      bools_[row_] = value != 0;
    else if (column_.type == ColumnType::kDouble)
      reals_[row_] = static_cast<double>(value);
    else
      Mismatch("INTEGER");
  }
  void Real(double value) override {
    if (column_.type != ColumnType::kDouble) Mismatch("REAL");
    reals_[row_] = value;
  }
  void Text(std::string_view value) override {
    if (column_.type != ColumnType::kText) Mismatch("TEXT");
    PyObject* str = interner_.NewRef(value);
    PyObject* old = texts_[row_];
    texts_[row_] = str;
    Py_XDECREF(old);
  }

 private:
  void MarkNull() {
    if (!nulls_) {
      py::array_t<bool> mask(static_cast<py::ssize_t>(rows_));
      nulls_ = static_cast<bool*>(mask.mutable_data());
      std::fill_n(nulls_, rows_, false);
      mask_ = std::move(mask);
    }
    nulls_[row_] = true;
  }
  [[noreturn]] void Mismatch(const char* cell_type) const {
    throw InternalError(fmt::format("table {}, column {} ({}): a {} cell in row {}", table_.name,
                                    column_.name, ColumnTypeName(column_.type), cell_type, row_));
  }

  const RunTable& table_;
  const TableColumn& column_;
  size_t rows_;
  TextInterner& interner_;
  py::array values_;
  py::object mask_;  // a bool array once the first null is seen
  bool* nulls_ = nullptr;
  int64_t* ints_ = nullptr;
  double* reals_ = nullptr;
  bool* bools_ = nullptr;
  PyObject** texts_ = nullptr;
  size_t row_ = 0;
};

}  // namespace

py::list TableColumns(const Run& run, const RunTable& table) {
  size_t rows = table.rows(run);
  TextInterner interner;
  py::list columns;
  for (const TableColumn& column : table.columns) {
    ColumnSink sink(table, column, rows, interner);
    sink.Fill(run);
    columns.append(sink.Result());
  }
  return columns;
}

}  // namespace htpscope::python
