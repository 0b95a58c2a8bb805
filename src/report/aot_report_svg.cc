// The flame graphs of `htpscope aot --svg` (declared in report/aot_report.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/aot_report.h"
#include "report/format_util.h"

namespace htpscope {
namespace {

constexpr double kWidthPx = 1200;
constexpr double kMarginPx = 10;
constexpr double kRowPx = 16;
constexpr double kHeaderPx = 56;
constexpr double kMinFramePx = 0.2;  // narrower frames (and their children) are not drawn
constexpr double kCharPx = 6.6;      // average glyph width at font-size 11
constexpr double kTextPadPx = 3;

// One colour per stage, then grey for samples not (yet) in a stage.
constexpr const char* kStageColours[] = {"#e8a33d", "#5b9bd5", "#70ad47", "#b07aa1",
                                         "#edc948", "#76b7b2", "#ff9da7", "#9c755f"};
constexpr const char* kNoStageColour = "#c8c8c8";

struct Placed {
  uint32_t node;
  double x, width;
  size_t depth;
};

double Basis(const FlameTree& tree, uint32_t node) {
  return tree.differential ? tree.nodes[node].b_seconds : tree.nodes[node].a_seconds;
}

// Lays out `node` and its children left to right from `x`.
void Place(const FlameTree& tree, uint32_t node, double x, double px_per_second, size_t depth,
           std::vector<Placed>& out) {
  double width = Basis(tree, node) * px_per_second;
  if (width < kMinFramePx) return;
  out.push_back({node, x, width, depth});
  for (uint32_t child : tree.nodes[node].children) {
    Place(tree, child, x, px_per_second, depth + 1, out);
    x += Basis(tree, child) * px_per_second;
  }
}

std::string DiffColour(double change, double max_abs_change) {
  double t = max_abs_change > 0 ? std::min(1.0, std::fabs(change) / max_abs_change) : 0;
  int v = static_cast<int>(std::lround(230.0 * (1.0 - t)));
  if (change > 0) return fmt::format("rgb(255,{},{})", v, v);
  if (change < 0) return fmt::format("rgb({},{},255)", v, v);
  return "rgb(230,230,230)";
}

std::string Tooltip(const FlameTree& tree, const FlameNode& n, double total_seconds) {
  std::string name = n.frame.empty() ? "all samples" : n.frame;
  std::string stage = n.stage >= 0 && static_cast<size_t>(n.stage) < tree.stage_names.size()
                          ? fmt::format(", stage {}", tree.stage_names[n.stage])
                          : "";
  if (!tree.differential)
    return fmt::format("{}\n{:.3f} s ({:.1f} % of all){}", name, n.a_seconds,
                       total_seconds > 0 ? n.a_seconds / total_seconds * 100.0 : 0.0, stage);
  std::string pct = n.a_seconds > 0 ? fmt::format(" ({:+.1f} %)",
                                                  (n.b_seconds - n.a_seconds) / n.a_seconds * 100.0)
                                    : "";
  return fmt::format("{}\nA {:.3f} s, B {:.3f} s, change {:+.3f} s{}{}", name, n.a_seconds,
                     n.b_seconds, n.b_seconds - n.a_seconds, pct, stage);
}

}  // namespace

std::string RenderAotFlameSvg(const FlameTree& tree, std::string_view title) {
  std::vector<Placed> placed;
  double total = tree.nodes.empty() ? 0 : Basis(tree, 0);
  double usable = kWidthPx - 2 * kMarginPx;
  if (total > 0) Place(tree, 0, kMarginPx, usable / total, 0, placed);
  size_t depth = 0;
  double max_abs_change = 0;
  for (const auto& p : placed) {
    depth = std::max(depth, p.depth + 1);
    const FlameNode& n = tree.nodes[p.node];
    if (p.node != 0)
      max_abs_change = std::max(max_abs_change, std::fabs(n.b_seconds - n.a_seconds));
  }
  double height = kHeaderPx + static_cast<double>(depth) * kRowPx + kMarginPx;
  std::string legend =
      tree.differential
          ? "width: B's seconds; red: more time in B than in A, blue: less (intensity ∝ change); "
            "frames B no longer runs are not drawn"
          : "width: seconds; colour: stage (grey: not in a stage)";
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"Verdana, sans-serif\" font-size=\"11\">\n"
      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      "<text x=\"{2:.0f}\" y=\"20\" font-size=\"15\">{3}</text>\n"
      "<text x=\"{2:.0f}\" y=\"40\" fill=\"#444444\">{4}</text>\n",
      kWidthPx, height, kMarginPx, XmlEscape(title), XmlEscape(legend));
  if (!tree.differential) {
    // A swatch per stage after the legend line.
    double x = kMarginPx + static_cast<double>(legend.size()) * kCharPx + 2 * kRowPx;
    for (size_t i = 0; i < tree.stage_names.size(); ++i) {
      out += fmt::format(
          "<rect x=\"{:.0f}\" y=\"30\" width=\"12\" height=\"12\" fill=\"{}\"/>"
          "<text x=\"{:.0f}\" y=\"40\">{}</text>\n",
          x, kStageColours[i % std::size(kStageColours)], x + 16, XmlEscape(tree.stage_names[i]));
      x += 16 + static_cast<double>(tree.stage_names[i].size() + 3) * kCharPx;
    }
  }
  for (const auto& p : placed) {
    const FlameNode& n = tree.nodes[p.node];
    double y = height - kMarginPx - static_cast<double>(p.depth + 1) * kRowPx;
    std::string fill = tree.differential ? DiffColour(n.b_seconds - n.a_seconds, max_abs_change)
                       : n.stage >= 0
                           ? kStageColours[static_cast<size_t>(n.stage) % std::size(kStageColours)]
                           : kNoStageColour;
    out += fmt::format(
        "<g><title>{}</title><rect x=\"{:.2f}\" y=\"{:.0f}\" width=\"{:.2f}\" height=\"{:.0f}\" "
        "fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>",
        XmlEscape(Tooltip(tree, n, total)), p.x, y, p.width, kRowPx - 1, fill);
    size_t columns =
        p.width > 2 * kTextPadPx ? static_cast<size_t>((p.width - 2 * kTextPadPx) / kCharPx) : 0;
    std::string label = p.node == 0 ? "all" : n.frame;
    if (columns >= 3)
      out += fmt::format("<text x=\"{:.2f}\" y=\"{:.0f}\">{}</text>", p.x + kTextPadPx,
                         y + kRowPx - 4, XmlEscape(Ellipsize(label, columns)));
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace htpscope
