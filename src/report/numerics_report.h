// Output of `htpscope numerics`: a text table in execution order (handle,
// reference ops, runtime ops, previews of both tensors, the gap) with the
// first divergent handle called out, and the same rows as JSON or CSV.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "analysis/numerics.h"

namespace htpscope {

// "5", or "5:1" (handle:output) when the handle has several outputs; the
// tensor name for rows without a handle.
std::string FormatHandleLabel(const HandleRow& row);

// A metric value for humans: 6 significant digits, "inf"/"-inf", "-" when absent.
std::string FormatMetric(std::optional<double> value);

// The table, a line naming the first divergent handle with all its metrics,
// and the counts.  Ends with a newline.
std::string FormatNumericsText(const NumericsResult& result);

// JSON document (keys in a fixed, readable order): run facts, first_divergent_handle, and handles[]
// with handle, output_index, status, mse, mean_abs, max_abs, cosine, snr_db (null when infinite or
// not computed), NaN/Inf counts and previews.
nlohmann::ordered_json NumericsToJson(const NumericsResult& result);

// One CSV record per handle output after a header record (report/csv_writer.h:
// RFC 4180, CRLF, formula-leading names neutralised); absent values are
// empty, infinite SNR is "inf"/"-inf".  Throws OutputError when `out` fails.
void WriteNumericsCsv(const NumericsResult& result, std::ostream& out);
std::string FormatNumericsCsv(const NumericsResult& result);

}  // namespace htpscope
