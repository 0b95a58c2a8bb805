// The library's exceptions as Python ones, with the CLI's messages (without
// its "htpscope: error: " prefix).
#include <exception>
#include <string>

#include "base/errors.h"
#include "module.h"

namespace htpscope::python {
namespace {

PyObject* input_error_type = nullptr;

py::object OptionalInt(const std::optional<uint64_t>& value) {
  return value ? py::object(py::int_(*value)) : py::object(py::none());
}

void RaiseInputError(const InputError& e) {
  py::object type = py::reinterpret_borrow<py::object>(input_error_type);
  py::object error = type(py::str(e.what()));
  error.attr("file") = py::str(e.file());
  error.attr("problem") = py::str(e.problem());
  error.attr("byte_offset") = OptionalInt(e.byte_offset());
  error.attr("line") = OptionalInt(e.line());
  PyErr_SetObject(input_error_type, error.ptr());
}

// How to give the value an input needs, as the CLI says it with its options.
std::string KeywordAdvice(ValueRole needed) {
  switch (needed) {
    case ValueRole::kTensorLayouts:
      return " (manifest \"layout\", or ref_layout=/device_layout=)";
    case ValueRole::kEtdumpDebugBuffer:
      return " with debug_buffer= (or ref_debug_buffer=)";
    default:
      return "";
  }
}

}  // namespace

void BindErrors(py::module_& m) {
  input_error_type = PyErr_NewExceptionWithDoc(
      "htpscope.InputError",
      "An input is missing, unreadable or malformed (the CLI's exit status 2). str() is the "
      "CLI's message; attributes: file, problem, byte_offset (JSON, binary) and line (text), "
      "each None when unknown.",
      PyExc_ValueError, nullptr);
  if (!input_error_type) throw py::error_already_set();
  m.add_object("InputError", py::handle(input_error_type));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputNeedsValueError& e) {
      RaiseInputError(InputError(e.file(), e.problem() + KeywordAdvice(e.needed())));
    } catch (const InputError& e) {
      RaiseInputError(e);
    } catch (const UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });
}

}  // namespace htpscope::python
