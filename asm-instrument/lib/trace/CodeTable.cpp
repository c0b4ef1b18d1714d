//===- CodeTable.cpp - code.json: the instructions of a capture -----------===//
#include "asm-instrument/trace/CodeTable.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

namespace {

/// Columns past the tenth, kept as numbers until the header names them.
constexpr unsigned MaxExtraColumns = 4;

struct PendingRow {
  std::optional<uint64_t> Extra[MaxExtraColumns];
};

std::string readString(od::value V, const char *What) {
  if (V.type() != od::json_type::string)
    throw JsonFormatError(std::string(What) + ": expected a string");
  return std::string(std::string_view(V.get_string()));
}

void readRow(od::value RowValue, size_t Index, CodeRow &Row, PendingRow &Extra) {
  unsigned N = 0;
  for (auto Col : RowValue.get_array()) {
    od::value V = Col.value();
    switch (N) {
    case 0:
      Row.Isa = readString(V, "code row ISA");
      break;
    case 1:
      break;
    case 2:
      Row.Line = uint32_t(readUnsigned(V, "code row LineNumber"));
      break;
    case 3:
      Row.Source = V.type() == od::json_type::string ? readString(V, "") : std::string();
      break;
    case 4:
      Row.CodeObject = uint32_t(readUnsigned(V, "code row Codeobj"));
      break;
    case 5:
      Row.Address = readUnsigned(V, "code row Vaddr");
      break;
    case 6:
      Row.Counts.Executions = readUnsigned(V, "code row Hit");
      break;
    case 7:
      Row.Counts.Cycles = readUnsigned(V, "code row Latency");
      break;
    case 8:
      Row.Counts.Stall = readUnsigned(V, "code row Stall");
      break;
    case 9:
      Row.Counts.Idle = readUnsigned(V, "code row Idle");
      break;
    default:
      if (N - 10 < MaxExtraColumns && V.type() == od::json_type::number) {
        uint64_t X;
        if (!V.get_uint64().get(X))
          Extra.Extra[N - 10] = X;
      }
      break;
    }
    ++N;
  }
  if (N < 10)
    throw JsonFormatError("code row " + std::to_string(Index) + " has " + std::to_string(N) +
                          " columns, expected at least 10");
}

std::vector<std::string> readHeader(od::value V) {
  std::vector<std::string> Names;
  if (V.type() == od::json_type::array) {
    for (auto Name : V.get_array())
      Names.push_back(StringRef(readString(Name.value(), "header")).trim().str());
    return Names;
  }
  // Parts point into the header's text: it must outlive them.
  std::string Header = readString(V, "header");
  SmallVector<StringRef, 16> Parts;
  StringRef(Header).split(Parts, ',');
  for (StringRef P : Parts)
    Names.push_back(P.trim().str());
  return Names;
}

CodeLabel readKernel(od::value V) {
  CodeLabel K;
  for (auto Field : V.get_object()) {
    std::string_view Key = Field.unescaped_key();
    if (Key == "name")
      K.Name = readString(Field.value(), "kernels name");
    else if (Key == "codeobj")
      K.CodeObject = uint32_t(readUnsigned(Field.value(), "kernels codeobj"));
    else if (Key == "address")
      K.Address = readUnsigned(Field.value(), "kernels address");
  }
  return K;
}

} // namespace

Expected<CodeTable> readCodeTable(StringRef Path, JsonReader &Reader) {
  CodeTable T;
  std::vector<PendingRow> Extras;
  std::vector<std::string> Header;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "code") {
        for (auto RowValue : Field.value().get_array()) {
          T.Rows.emplace_back();
          Extras.emplace_back();
          readRow(RowValue.value(), T.Rows.size() - 1, T.Rows.back(), Extras.back());
        }
      } else if (Key == "header") {
        Header = readHeader(Field.value());
      } else if (Key == "version") {
        T.Version = readString(Field.value(), "version");
      } else if (Key == "kernels") {
        for (auto K : Field.value().get_array())
          T.Kernels.push_back(readKernel(K.value()));
      }
    }
  });
  if (E)
    return std::move(E);
  std::optional<unsigned> Issued, Stalled;
  for (unsigned I = 10; I < Header.size() && I < 10 + MaxExtraColumns; ++I) {
    if (Header[I] == "Issued" || Header[I] == "PC_Issued")
      Issued = I - 10;
    else if (Header[I] == "Stalled" || Header[I] == "PC_Stalled")
      Stalled = I - 10;
  }
  T.HasSamples = Issued || Stalled;
  if (T.HasSamples)
    for (size_t I = 0; I < T.Rows.size(); ++I) {
      if (Issued)
        T.Rows[I].Samples.Issued = Extras[I].Extra[*Issued].value_or(0);
      if (Stalled)
        T.Rows[I].Samples.Stalled = Extras[I].Extra[*Stalled].value_or(0);
    }
  return T;
}

} // namespace stinkytofu::trace
