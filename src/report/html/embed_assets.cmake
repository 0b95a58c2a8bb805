# Writes the HTML report's page (report.html, report.css, report.js beside
# this script) into a C++ header of std::string_view constants, as raw string
# literals, so that htpscope carries its template and needs no file at run
# time.  Run at build time by the top-level CMakeLists.txt:
#   cmake -DOUTPUT=<header> -P embed_assets.cmake
# The header is rewritten only when its text changes.
if(NOT OUTPUT)
  message(FATAL_ERROR "embed_assets.cmake: pass -DOUTPUT=<header>")
endif()
set(_dir "${CMAKE_CURRENT_LIST_DIR}")
set(_delimiter "htpscope_asset")
set(_text "// Generated from src/report/html/ by embed_assets.cmake: do not edit.\n")
string(APPEND _text "#pragma once\n\n#include <string_view>\n\nnamespace htpscope::html_assets {\n")
foreach(_pair IN ITEMS "kReportHtml=report.html" "kReportCss=report.css" "kReportJs=report.js")
  string(REPLACE "=" ";" _parts "${_pair}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _file)
  file(READ "${_dir}/${_file}" _content)
  string(FIND "${_content}" ")${_delimiter}\"" _clash)
  if(NOT _clash EQUAL -1)
    message(FATAL_ERROR "${_file} contains the raw-string delimiter )${_delimiter}\"")
  endif()
  string(APPEND _text "inline constexpr std::string_view ${_name} = R\"${_delimiter}(${_content})${_delimiter}\";\n")
endforeach()
string(APPEND _text "}  // namespace htpscope::html_assets\n")
file(WRITE "${OUTPUT}.tmp" "${_text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
