#include "report/svg_timeline.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <vector>

#include "report/markup.h"

namespace arenaplan::report {
namespace {

constexpr double kWidth = 960, kLeft = 70, kRight = 12, kTop = 28, kTimelineHeight = 380, kCurveHeight = 110;
const char* const kPalette[] = {"#5b8def", "#3fb68b", "#e9a23b", "#a97bd8", "#e0677a", "#4bb3c9",
                                "#8fb347", "#d9824a", "#6d7fd1", "#c768a9", "#57a773", "#b89b3e"};

struct Rect {
  std::string id, name;
  int64_t size, first, last, offset;
  bool fixed;
};

// `plan` documents carry first/last (inclusive), `solve` documents lower/upper (exclusive).
std::vector<Rect> Buffers(const nlohmann::json& doc) {
  std::vector<Rect> out;
  for (const auto& b : doc.at("buffers")) {
    const bool solve = b.contains("lower");
    const std::string id = b.at("id").is_string() ? b.at("id").get<std::string>() : b.at("id").dump();
    out.push_back({id, b.contains("name") ? b.at("name").get<std::string>() : id, b.at("size").get<int64_t>(),
                   solve ? b.at("lower").get<int64_t>() : b.at("first").get<int64_t>(),
                   solve ? b.at("upper").get<int64_t>() - 1 : b.at("last").get<int64_t>(),
                   b.at("offset").get<int64_t>(), b.value("fixed", false)});
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string Short(int64_t n) {
  char buf[32];
  if (n >= (int64_t{1} << 20))
    std::snprintf(buf, sizeof buf, "%.1fM", n / 1048576.0);
  else if (n >= 1024)
    std::snprintf(buf, sizeof buf, "%.1fK", n / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n));
  return buf;
}

const char* Color(const Rect& r) {
  if (r.fixed) return "#98a2b3";
  if (r.id.rfind("scratch", 0) == 0) return "#f2b84b";
  uint32_t h = 2166136261u;
  for (const char c : r.id) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return kPalette[h % (sizeof kPalette / sizeof kPalette[0])];
}

// The live-bytes step function: (step, bytes alive from that step on).
std::vector<std::pair<int64_t, int64_t>> LiveCurve(const std::vector<Rect>& rects) {
  std::map<int64_t, int64_t> delta;
  for (const Rect& r : rects) {
    delta[r.first] += r.size;
    delta[r.last + 1] -= r.size;
  }
  std::vector<std::pair<int64_t, int64_t>> curve;
  int64_t live = 0;
  for (const auto& [t, d] : delta) curve.emplace_back(t, live += d);
  return curve;
}

// Scales shared by the parts of the picture.
struct Frame {
  int64_t t0 = 0, t1 = 1;
  double ymax = 1;
  double px(double t) const { return kLeft + (t - t0) / static_cast<double>(t1 - t0) * (kWidth - kLeft - kRight); }
  double py(double a) const { return kTop + a / ymax * kTimelineHeight; }
  double curve_bottom() const { return kTop + kTimelineHeight + 20 + kCurveHeight; }
  double cy(double v) const { return curve_bottom() - v / ymax * kCurveHeight; }
};

void DrawBuffers(const std::vector<Rect>& rects, const Frame& f, std::string& s) {
  s += "<g stroke=\"#fff\" stroke-width=\"0.5\">\n";
  for (const Rect& r : rects) {
    const double x = f.px(static_cast<double>(r.first)), y = f.py(static_cast<double>(r.offset));
    const double rw = std::max(1.0, f.px(static_cast<double>(r.last + 1)) - x);
    const double rh = std::max(1.0, f.py(static_cast<double>(r.offset + r.size)) - y);
    s += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(rw) + "\" height=\"" + Num(rh) +
         "\" fill=\"" + Color(r) + "\"><title>" + EscapeMarkup(r.name) + " (" + EscapeMarkup(r.id) +
         "): " + std::to_string(r.size) + " B, steps " + std::to_string(r.first) + "-" + std::to_string(r.last) +
         ", offset " + std::to_string(r.offset) + "</title></rect>\n";
  }
  s += "</g>\n";
}

void HLine(double y, const char* color, const char* dash, const std::string& label, std::string& s) {
  s += "<line x1=\"" + Num(kLeft) + "\" x2=\"" + Num(kWidth - kRight) + "\" y1=\"" + Num(y) + "\" y2=\"" + Num(y) +
       "\" stroke=\"" + color + "\" stroke-dasharray=\"" + dash + "\"/>";
  if (!label.empty()) {
    s += "<text x=\"" + Num(kWidth - kRight - 4) + "\" y=\"" + Num(y - 3) + "\" text-anchor=\"end\" fill=\"" + color +
         "\">" + label + "</text>";
  }
  s += "\n";
}

void DrawCurve(const std::vector<Rect>& rects, const Frame& f, int64_t bound, std::string& s) {
  const auto curve = LiveCurve(rects);
  std::string path = "M" + Num(f.px(static_cast<double>(f.t0))) + " " + Num(f.cy(0));
  for (size_t k = 0; k < curve.size(); ++k) {
    const double x = f.px(static_cast<double>(curve[k].first));
    const double xe = k + 1 < curve.size() ? f.px(static_cast<double>(curve[k + 1].first)) : x;
    const std::string y = Num(f.cy(static_cast<double>(curve[k].second)));
    path += " L" + Num(x) + " " + y + " L" + Num(xe) + " " + y;
  }
  s += "<path d=\"" + path + "\" fill=\"#1f6feb\" fill-opacity=\"0.25\" stroke=\"#1f6feb\"/>\n";
  HLine(f.cy(static_cast<double>(bound)), "#12b76a", "6 4", "", s);
}

}  // namespace

std::string RenderSvgTimeline(const nlohmann::json& doc, const std::string& title) {
  const std::vector<Rect> rects = Buffers(doc);
  const int64_t arena = doc.contains("arena_bytes") ? doc.at("arena_bytes").get<int64_t>()
                                                    : doc.at("height").get<int64_t>();
  const int64_t bound = doc.at("lower_bound_bytes").get<int64_t>();
  const int64_t peak_step = doc.at("peak").at("step").get<int64_t>();
  const int64_t peak = doc.at("peak").at("live_bytes").get<int64_t>();
  Frame f;
  if (!rects.empty()) {
    f.t0 = std::min_element(rects.begin(), rects.end(), [](auto& a, auto& b) { return a.first < b.first; })->first;
    f.t1 = std::max_element(rects.begin(), rects.end(), [](auto& a, auto& b) { return a.last < b.last; })->last + 1;
  }
  f.ymax = static_cast<double>(std::max<int64_t>({arena, peak, 1}));
  const double bottom = f.curve_bottom();
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(kWidth) + "\" height=\"" +
                  Num(bottom + 30) + "\" font-family=\"sans-serif\" font-size=\"11\">\n<title>" + EscapeMarkup(title) +
                  "</title>\n<text x=\"" + Num(kLeft) + "\" y=\"16\" font-size=\"13\">" + EscapeMarkup(title) +
                  ": arena " + std::to_string(arena) + " B, lower bound " + std::to_string(bound) + " B, " +
                  std::to_string(rects.size()) + " buffers</text>\n";
  DrawBuffers(rects, f, s);
  HLine(f.py(static_cast<double>(arena)), "#344054", "none", "arena " + Short(arena), s);
  if (bound != arena) HLine(f.py(static_cast<double>(bound)), "#12b76a", "6 4", "lower bound " + Short(bound), s);
  for (int k = 0; k <= 4; ++k) {  // address axis
    const double a = f.ymax * k / 4;
    s += "<text x=\"" + Num(kLeft - 6) + "\" y=\"" + Num(f.py(a) + 4) + "\" text-anchor=\"end\" fill=\"#667085\">" +
         Short(static_cast<int64_t>(a)) + "</text>\n";
  }
  DrawCurve(rects, f, bound, s);
  const double xp = f.px(static_cast<double>(peak_step) + 0.5);
  s += "<line class=\"peak\" x1=\"" + Num(xp) + "\" x2=\"" + Num(xp) + "\" y1=\"" + Num(kTop) + "\" y2=\"" +
       Num(bottom) + "\" stroke=\"#d92d20\" stroke-dasharray=\"4 3\"/><text x=\"" + Num(xp + 4) + "\" y=\"" +
       Num(kTop + 12) + "\" fill=\"#d92d20\">peak: step " + std::to_string(peak_step) + ", " + std::to_string(peak) +
       " B</text>\n";
  s += "<text x=\"" + Num(kLeft) + "\" y=\"" + Num(bottom + 16) + "\" fill=\"#667085\">step " + std::to_string(f.t0) +
       "</text><text x=\"" + Num(kWidth - kRight) + "\" y=\"" + Num(bottom + 16) +
       "\" text-anchor=\"end\" fill=\"#667085\">step " + std::to_string(f.t1 - 1) + "</text>\n</svg>\n";
  return s;
}

}  // namespace arenaplan::report
