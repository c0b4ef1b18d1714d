//===- PressurePlot.cpp - Live registers along a kernel, as SVG -----------===//
#include "stinkytofu/transforms/PressurePlot.h"
#include "llvm/Support/Format.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

namespace {

constexpr unsigned Width = 1200, PanelHeight = 260, Left = 60, Right = 20, Top = 30,
                   Bottom = 30;
constexpr unsigned PlotWidth = Width - Left - Right, PlotHeight = PanelHeight - Top - Bottom;

// Colours the screenshot test looks for: one per element kind.
constexpr const char *LoopFill = "rgb(253,233,201)", *VectorFill = "rgb(31,119,180)",
                     *ScalarStroke = "rgb(44,160,44)", *AllocatedFill = "rgb(214,39,40)",
                     *NextWaveFill = "rgb(255,127,14)";

std::string escape(StringRef S) {
  std::string Out;
  for (char C : S)
    switch (C) {
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '&': Out += "&amp;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  return Out;
}

class Panel {
public:
  Panel(const PressurePlot &P, unsigned Y0) : P(P), Y0(Y0) {
    unsigned Most = std::max(P.AllocatedVGPRs, P.NextWaveVGPRs.value_or(0));
    for (unsigned V : P.VectorLive)
      Most = std::max(Most, V);
    for (unsigned S : P.ScalarLive)
      Most = std::max(Most, S);
    YMax = std::max(1u, Most + Most / 10);
  }

  void write(raw_ostream &OS) const {
    unsigned N = std::max<size_t>(P.VectorLive.size(), 1);
    OS << "<text x=\"" << Left << "\" y=\"" << Y0 + 18 << "\">" << escape(P.Title) << "</text>\n";
    for (const PressurePlot::Span &L : P.Loops) {
      double X0 = x(L.First, N), X1 = x(L.Last + 1, N);
      OS << "<g data-n=\"loop " << escape(L.Name) << "\"><title>" << escape(L.Note)
         << "</title><rect x=\"" << format("%.1f", X0) << "\" y=\"" << Y0 + Top
         << "\" width=\"" << format("%.1f", std::max(X1 - X0, 1.0)) << "\" height=\""
         << PlotHeight << "\" fill=\"" << LoopFill << "\"/></g>\n";
    }
    // Live VGPRs as steps: each instruction holds its count over its width.
    OS << "<g data-n=\"vgpr\"><title>live VGPRs and AGPRs</title><polygon points=\"";
    OS << format("%.1f,%.1f", x(0, N), y(0));
    for (size_t I = 0; I < P.VectorLive.size(); ++I)
      OS << format(" %.1f,%.1f %.1f,%.1f", x(I, N), y(P.VectorLive[I]), x(I + 1, N),
                   y(P.VectorLive[I]));
    OS << format(" %.1f,%.1f", x(N, N), y(0)) << "\" fill=\"" << VectorFill << "\"/></g>\n";
    OS << "<g data-n=\"sgpr\"><title>live SGPRs</title><polyline points=\"";
    for (size_t I = 0; I < P.ScalarLive.size(); ++I)
      OS << format("%s%.1f,%.1f %.1f,%.1f", I ? " " : "", x(I, N), y(P.ScalarLive[I]),
                   x(I + 1, N), y(P.ScalarLive[I]));
    OS << "\" stroke=\"" << ScalarStroke << "\" stroke-width=\"2\" fill=\"none\"/></g>\n";
    limit(OS, "allocated", "VGPRs allocated: " + std::to_string(P.AllocatedVGPRs),
          P.AllocatedVGPRs, AllocatedFill);
    if (P.NextWaveVGPRs)
      limit(OS, "next wave",
            "at most " + std::to_string(*P.NextWaveVGPRs) + " VGPRs for one more wave",
            *P.NextWaveVGPRs, NextWaveFill);
    // Axes: registers up the left, instructions along the bottom.
    OS << "<line x1=\"" << Left << "\" y1=\"" << Y0 + Top << "\" x2=\"" << Left << "\" y2=\""
       << y(0) << "\" stroke=\"black\"/>\n"
       << "<line x1=\"" << Left << "\" y1=\"" << y(0) << "\" x2=\"" << Width - Right
       << "\" y2=\"" << y(0) << "\" stroke=\"black\"/>\n"
       << "<text x=\"" << Left - 6 << "\" y=\"" << format("%.1f", y(YMax) + 10)
       << "\" text-anchor=\"end\">" << YMax << "</text>\n"
       << "<text x=\"" << Left - 6 << "\" y=\"" << format("%.1f", y(0))
       << "\" text-anchor=\"end\">0</text>\n"
       << "<text x=\"" << Width - Right << "\" y=\"" << format("%.1f", y(0) + 18)
       << "\" text-anchor=\"end\">" << P.VectorLive.size() << " instructions</text>\n";
  }

private:
  double x(size_t I, size_t N) const { return Left + double(PlotWidth) * I / N; }
  double y(unsigned V) const { return Y0 + Top + PlotHeight - double(PlotHeight) * V / YMax; }
  void limit(raw_ostream &OS, StringRef Name, StringRef Note, unsigned V,
             const char *Fill) const {
    OS << "<g data-n=\"" << Name << "\"><title>" << escape(Note) << "</title><rect x=\"" << Left
       << "\" y=\"" << format("%.1f", y(V) - 1) << "\" width=\"" << PlotWidth
       << "\" height=\"2\" fill=\"" << Fill << "\"/></g>\n";
  }

  const PressurePlot &P;
  unsigned Y0;
  unsigned YMax;
};

} // namespace

void writePressureSvg(raw_ostream &OS, ArrayRef<PressurePlot> Plots) {
  unsigned Height = PanelHeight * std::max<size_t>(Plots.size(), 1);
  OS << "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width
     << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " " << Height << "\">\n"
     << "<style>text{font:12px sans-serif}</style>\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (size_t I = 0; I < Plots.size(); ++I)
    Panel(Plots[I], I * PanelHeight).write(OS);
  OS << "</svg>\n";
}

} // namespace stinkytofu
