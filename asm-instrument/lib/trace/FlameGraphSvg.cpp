//===- FlameGraphSvg.cpp - A self-contained interactive flame graph -------===//
#include "asm-instrument/trace/FlameGraphSvg.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::trace {

namespace {

constexpr unsigned ImageWidth = 1200, Pad = 10, FrameHeight = 16, Top = 40, Bottom = 30;

void writeXmlText(raw_ostream &OS, StringRef S) {
  for (char C : S) {
    switch (C) {
    case '<':
      OS << "&lt;";
      break;
    case '>':
      OS << "&gt;";
      break;
    case '&':
      OS << "&amp;";
      break;
    case '"':
      OS << "&quot;";
      break;
    default:
      OS << C;
    }
  }
}

/// Warm colours, fixed per name so that the same scope looks the same in
/// every graph.
std::string colorOf(StringRef Name) {
  // FNV-1a, not llvm::hash_value: that one may be seeded per process.
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : Name)
    H = (H ^ C) * 1099511628211ull;
  unsigned R = 205 + H % 50, G = (H >> 8) % 180 + 40, B = (H >> 16) % 55;
  return formatv("rgb({0},{1},{2})", R, G, B).str();
}

const char *Script = R"JS(
var frames = [], W = 0, X0 = 0, total = 0, searching = null;
function init(evt) {
  var svg = document.documentElement;
  X0 = +svg.getAttribute('data-pad');
  W = +svg.getAttribute('width') - 2 * X0;
  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));
  frames.forEach(function (g) {
    g.onclick = function () { zoom(g); };
    g.onmouseover = function () { details(g.querySelector('title').textContent); };
    g.onmouseout = function () { details(' '); };
  });
  total = frames.length ? +frames[0].getAttribute('data-w') : 0;
  layout(0, total, 0);
  svg.setAttribute('data-rendered', String(frames.length));
}
function details(s) { document.getElementById('details').textContent = s; }
function layout(x0, w0, d0) {
  frames.forEach(function (g) {
    var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');
    var nx, nw, show;
    if (d < d0) { show = x <= x0 && x + w >= x0 + w0; nx = X0; nw = W; }
    else { show = x >= x0 && x + w <= x0 + w0; nx = X0 + (x - x0) / w0 * W; nw = w / w0 * W; }
    show = show && nw >= 0.5;
    g.style.display = show ? '' : 'none';
    if (!show) return;
    var r = g.querySelector('rect'), t = g.querySelector('text');
    r.setAttribute('x', nx); r.setAttribute('width', nw);
    t.setAttribute('x', nx + 3);
    var name = g.getAttribute('data-n'), fit = Math.floor((nw - 6) / 7);
    t.textContent = fit < 3 ? '' : (name.length <= fit ? name : name.substring(0, fit - 2) + '..');
  });
}
function zoom(g) {
  layout(+g.getAttribute('data-x'), +g.getAttribute('data-w'), +g.getAttribute('data-d'));
  document.getElementById('unzoom').style.opacity = 1;
}
function unzoom() { layout(0, total, 0); document.getElementById('unzoom').style.opacity = 0.3; }
function search_prompt() {
  var term = searching ? null : prompt('Search frames (regular expression)', '');
  search(term);
}
function search(term) {
  var re = term ? new RegExp(term) : null, spans = [];
  searching = re;
  frames.forEach(function (g) {
    var r = g.querySelector('rect');
    if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));
    var hit = re && re.test(g.getAttribute('data-n'));
    r.setAttribute('fill', hit ? 'rgb(230,0,230)' : r.getAttribute('data-fill'));
    if (hit) spans.push([+g.getAttribute('data-x'), +g.getAttribute('data-w')]);
  });
  spans.sort(function (a, b) { return a[0] - b[0]; });
  var covered = 0, end = -1;
  spans.forEach(function (s) {
    if (s[0] >= end) { covered += s[1]; end = s[0] + s[1]; }
    else if (s[0] + s[1] > end) { covered += s[0] + s[1] - end; end = s[0] + s[1]; }
  });
  document.getElementById('matched').textContent =
    re ? 'Matched: ' + (total ? (100 * covered / total).toFixed(1) : '0') + '%' : ' ';
  document.getElementById('search').textContent = re ? 'Reset Search' : 'Search';
}
)JS";

} // namespace

void writeFlameGraphSvg(const StackProfile &Profile, StringRef Title, raw_ostream &OS) {
  const auto &Nodes = Profile.nodes();
  unsigned MaxDepth = 0;
  Profile.walk([&](ArrayRef<unsigned> Path) { MaxDepth = std::max<unsigned>(MaxDepth, Path.size()); });
  unsigned Height = Top + (MaxDepth + 1) * FrameHeight + Bottom;
  uint64_t Total = Nodes[0].Total;
  double Scale = Total ? double(ImageWidth - 2 * Pad) / double(Total) : 0;

  OS << "<?xml version=\"1.0\" standalone=\"no\"?>\n"
     << "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << ImageWidth
     << "\" height=\"" << Height << "\" viewBox=\"0 0 " << ImageWidth << ' ' << Height
     << "\" data-pad=\"" << Pad << "\" onload=\"init(evt)\">\n"
     << "<style>text { font-family: monospace; font-size: 12px; fill: #000; } "
        "g.f:hover rect { stroke: #000; stroke-width: 0.5; } g.f { cursor: pointer; } "
        "#title { font-size: 17px; } #unzoom, #search { cursor: pointer; }</style>\n"
     << "<script type=\"text/ecmascript\"><![CDATA[" << Script << "]]></script>\n"
     << "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f0\"/>\n"
     << "<text id=\"title\" x=\"" << ImageWidth / 2 << "\" y=\"24\" text-anchor=\"middle\">";
  writeXmlText(OS, Title);
  OS << "</text>\n"
     << "<text id=\"unzoom\" x=\"" << Pad << "\" y=\"24\" style=\"opacity:0.3\" "
        "onclick=\"unzoom()\">Reset Zoom</text>\n"
     << "<text id=\"search\" x=\"" << ImageWidth - Pad
     << "\" y=\"24\" text-anchor=\"end\" onclick=\"search_prompt()\">Search</text>\n"
     << "<text id=\"details\" x=\"" << Pad << "\" y=\"" << Height - 10 << "\"> </text>\n"
     << "<text id=\"matched\" x=\"" << ImageWidth - Pad << "\" y=\"" << Height - 10
     << "\" text-anchor=\"end\"> </text>\n<g id=\"frames\">\n";

  // The root ("all") at depth 0, then every node at its depth; x is the
  // cycle offset among its siblings, so children sit on their parent.
  std::vector<uint64_t> Offset(Nodes.size(), 0);
  auto Frame = [&](StringRef Name, uint64_t X, uint64_t Width, unsigned Depth) {
    unsigned Y = Height - Bottom - (Depth + 1) * FrameHeight;
    double Percent = Total ? 100.0 * double(Width) / double(Total) : 0;
    OS << "<g class=\"f\" data-x=\"" << X << "\" data-w=\"" << Width << "\" data-d=\"" << Depth
       << "\" data-n=\"";
    writeXmlText(OS, Name);
    OS << "\"><title>";
    writeXmlText(OS, Name);
    OS << " (" << Width << " cycles, " << format("%.2f", Percent) << "%)</title><rect x=\""
       << format("%.2f", Pad + X * Scale) << "\" y=\"" << Y << "\" width=\""
       << format("%.2f", Width * Scale) << "\" height=\"" << FrameHeight - 1
       << "\" rx=\"2\" fill=\"" << colorOf(Name) << "\"/><text x=\""
       << format("%.2f", Pad + X * Scale + 3) << "\" y=\"" << Y + FrameHeight - 4
       << "\"></text></g>\n";
  };
  Frame("all", 0, Total, 0);
  uint64_t Next = 0;
  for (unsigned K : Profile.sortedChildren(0)) {
    Offset[K] = Next;
    Next += Nodes[K].Total;
  }
  Profile.walk([&](ArrayRef<unsigned> Path) {
    unsigned N = Path.back();
    uint64_t ChildX = Offset[N];
    for (unsigned C : Profile.sortedChildren(N)) {
      Offset[C] = ChildX;
      ChildX += Nodes[C].Total;
    }
    if (Nodes[N].Total)
      Frame(Nodes[N].Name, Offset[N], Nodes[N].Total, Path.size());
  });
  OS << "</g>\n</svg>\n";
}

} // namespace stinkytofu::trace
