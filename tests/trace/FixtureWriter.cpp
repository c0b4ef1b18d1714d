//===- FixtureWriter.cpp - Write a scenario as rocprofv3 --att output -----===//
#include "FixtureWriter.h"
#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "asm-instrument/trace/AddressLayout.h"
#include "stinkytofu/support/PendingOutputs.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <queue>

using namespace llvm;
using namespace stinkytofu;

namespace fixture {

namespace {

struct Record {
  uint64_t Time;
  uint32_t Value;
  uint8_t CU, SIMD, Slot, Flags;
};

/// The smallest AMDGPU ELF64 file the code-object reader accepts: a NULL
/// section and .shstrtab. The funcmap is then patched in like a real one.
std::string emptyCodeObject() {
  const char Names[] = "\0.shstrtab";
  ELF::Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELF::ElfMagic, 4);
  H.e_ident[ELF::EI_CLASS] = ELF::ELFCLASS64;
  H.e_ident[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  H.e_ident[ELF::EI_VERSION] = ELF::EV_CURRENT;
  H.e_ident[ELF::EI_OSABI] = ELF::ELFOSABI_AMDGPU_HSA;
  H.e_type = ELF::ET_DYN;
  H.e_machine = ELF::EM_AMDGPU;
  H.e_version = ELF::EV_CURRENT;
  H.e_flags = ELF::EF_AMDGPU_MACH_AMDGCN_GFX942;
  H.e_ehsize = sizeof(H);
  H.e_shentsize = sizeof(ELF::Elf64_Shdr);
  H.e_shnum = 2;
  H.e_shstrndx = 1;
  H.e_shoff = 80;
  ELF::Elf64_Shdr Sections[2]{};
  Sections[1].sh_name = 1;
  Sections[1].sh_type = ELF::SHT_STRTAB;
  Sections[1].sh_offset = sizeof(H);
  Sections[1].sh_size = sizeof(Names);
  Sections[1].sh_addralign = 1;
  std::string Bytes(80 + sizeof(Sections), '\0');
  std::memcpy(Bytes.data(), &H, sizeof(H));
  std::memcpy(Bytes.data() + sizeof(H), Names, sizeof(Names));
  std::memcpy(Bytes.data() + 80, Sections, sizeof(Sections));
  return Bytes;
}

struct ParsedCodeObject {
  funcmap::FuncMap Map;
  std::string Bytes;
};

Expected<std::map<uint32_t, ParsedCodeObject>> buildCodeObjects(const Scenario &S) {
  std::map<uint32_t, ParsedCodeObject> Out;
  for (auto &[Id, C] : S.CodeObjects) {
    ParsedCodeObject &P = Out[Id];
    std::string Text = join(C.Rows, "\n") + "\n";
    Expected<funcmap::FuncMap> Map = funcmap::parseFuncMap(Text, funcmap::ParseMode::Strict);
    if (!Map)
      return createStringError(inconvertibleErrorCode(), "code object " + Twine(Id) +
                                                             " funcmap: " +
                                                             toString(Map.takeError()));
    P.Map = std::move(*Map);
    if (!C.From.empty()) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(C.From);
      if (!Buf)
        return createStringError(Buf.getError(), C.From + ": " + Buf.getError().message());
      P.Bytes = (*Buf)->getBuffer().str();
      // Markers named in the scenario (@name) resolve through its funcmap.
      if (C.Rows.empty()) {
        Expected<elf::ElfImage> Image = elf::ElfImage::create((*Buf)->getBuffer());
        if (!Image)
          return createStringError(inconvertibleErrorCode(),
                                   C.From + ": " + toString(Image.takeError()));
        for (unsigned Index : Image->findSections(funcmap::FuncMapSectionName)) {
          Expected<funcmap::FuncMap> Map = funcmap::parseFuncMap(
              Image->sectionContents(Image->sections()[Index]), funcmap::ParseMode::Lenient);
          if (!Map)
            return Map.takeError();
          P.Map = std::move(*Map);
        }
      }
    } else {
      P.Bytes = emptyCodeObject();
    }
    if (S.FuncMapInCodeObject && !C.Rows.empty()) {
      Expected<std::string> Patched =
          elf::patchFuncMapSection(P.Bytes, funcmap::funcMapSectionContents(P.Map));
      if (!Patched)
        return Patched.takeError();
      P.Bytes = std::move(*Patched);
    }
  }
  return Out;
}

/// The code object a kernel's K: row is in (else the first one).
const ParsedCodeObject *codeObjectOf(const std::map<uint32_t, ParsedCodeObject> &Objects,
                                     StringRef Kernel) {
  for (auto &[Id, P] : Objects)
    for (const funcmap::Marker &M : P.Map.markers())
      if (M.Kind == funcmap::MarkerKind::Kernel && M.Name == Kernel)
        return &P;
  return Objects.empty() ? nullptr : &Objects.begin()->second;
}

/// Yields one wave's records in order, expanding repeats and payloads.
class WaveStream {
public:
  WaveStream(const Wave &W, const ParsedCodeObject *Code) : W(W), Code(Code) {}

  Expected<bool> next(Record &R) {
    while (At == Buffer.size()) {
      Buffer.clear();
      At = 0;
      if (Block == W.Blocks.size())
        return false;
      const EventBlock &B = W.Blocks[Block];
      if (Event == B.Events.size() || Rep == B.Count) {
        Event = 0;
        if (++Rep >= B.Count) {
          Rep = 0;
          ++Block;
        }
        continue;
      }
      if (Error E = expand(B.Events[Event++], Rep * B.Period))
        return std::move(E);
    }
    R = Buffer[At++];
    return true;
  }

private:
  void push(uint64_t Time, uint32_t Value, uint8_t Flags = 0) {
    Buffer.push_back({Time, Value, uint8_t(W.CU), uint8_t(W.SIMD), uint8_t(W.Slot), Flags});
  }
  Error expand(const fixture::Event &E, uint64_t Shift);
  Expected<uint32_t> headerValue(const fixture::Event &E);

  const Wave &W;
  const ParsedCodeObject *Code;
  size_t Block = 0, Event = 0;
  uint64_t Rep = 0;
  std::vector<Record> Buffer;
  size_t At = 0;
};

Expected<uint32_t> WaveStream::headerValue(const fixture::Event &E) {
  uint32_t Id = E.Id;
  if (!E.IdName.empty()) {
    const funcmap::Marker *Found = nullptr;
    if (Code)
      for (const funcmap::Marker &M : Code->Map.markers())
        if (M.hasId() && M.Name == E.IdName)
          Found = &M;
    if (!Found)
      return createStringError(inconvertibleErrorCode(),
                               "no marker named '" + E.IdName + "' in the funcmap");
    Id = Found->Id;
  }
  switch (E.Does) {
  case fixture::Event::Exit:
    return 1u;
  case fixture::Event::Enter:
    return Id << 2 | 2;
  case fixture::Event::Transition:
    return Id << 2 | 3;
  case fixture::Event::Point:
    break;
  }
  return Id << 2;
}

Error WaveStream::expand(const fixture::Event &E, uint64_t Shift) {
  uint64_t T = E.Time + Shift;
  if (E.What == fixture::Event::Inst) // Wave files, not shaderdata.
    return Error::success();
  if (E.What == fixture::Event::Raw) {
    push(T, E.Value, E.Flags);
    return Error::success();
  }
  Expected<uint32_t> Header =
      E.What == fixture::Event::Packed && (E.Flags & PackedValueGiven) ? E.Value : headerValue(E);
  if (!Header)
    return Header.takeError();
  switch (E.What) {
  case fixture::Event::Raw:
  case fixture::Event::Inst:
  case fixture::Event::Marker:
    push(T, *Header);
    return Error::success();
  case fixture::Event::Packed: {
    std::optional<funcmap::MarkerEncoding> Enc = Code ? Code->Map.markerEncoding() : std::nullopt;
    if (!Enc)
      return createStringError(inconvertibleErrorCode(), "packed event without an M: row");
    uint32_t Field = uint32_t(T >> Enc->ShaderClockShift) & ((1u << Enc->ShaderClockBits) - 1);
    push(T + E.Delay, Field << (32 - Enc->ShaderClockBits) | *Header);
    return Error::success();
  }
  case fixture::Event::Address: {
    const funcmap::Marker *M = Code ? Code->Map.find(*Header >> 2) : nullptr;
    if (!M)
      return createStringError(inconvertibleErrorCode(),
                               "addr: marker " + Twine(*Header >> 2) + " is not in the funcmap");
    trace::AddressLayout L = trace::addressLayoutOf(M->Name);
    unsigned WaveSize = Code->Map.waveSize().value_or(64);
    push(T, *Header);
    std::vector<uint32_t> Words = {uint32_t(E.Exec), uint32_t(E.Exec >> 32)};
    auto Lane = [&](unsigned I) { return E.Base + I * E.Stride; };
    switch (L) {
    case trace::AddressLayout::Flat64:
      for (unsigned I = 0; I < WaveSize; ++I) {
        Words.push_back(uint32_t(Lane(I)));
        Words.push_back(uint32_t(Lane(I) >> 32));
      }
      break;
    case trace::AddressLayout::Word32:
      for (unsigned I = 0; I < WaveSize; ++I)
        Words.push_back(uint32_t(Lane(I)));
      break;
    case trace::AddressLayout::Buffer:
    case trace::AddressLayout::StructBuffer:
      // Base in the descriptor, no soffset, the lane offsets in voffset
      // (struct buffers: vindex 0).
      Words.push_back(uint32_t(E.Base));
      Words.push_back(uint32_t(E.Base >> 32) & 0xffff);
      Words.push_back(0);
      for (unsigned I = 0; I < WaveSize; ++I)
        Words.push_back(uint32_t(I * E.Stride));
      if (L == trace::AddressLayout::StructBuffer)
        for (unsigned I = 0; I < WaveSize; ++I)
          Words.push_back(0);
      break;
    case trace::AddressLayout::None:
      return createStringError(inconvertibleErrorCode(),
                               "addr: marker " + Twine(M->Id) + " is not addr_trace_*");
    }
    for (size_t I = 0; I < Words.size(); ++I)
      push(T + 1 + I, Words[I]);
    return Error::success();
  }
  }
  return Error::success();
}

std::string path(StringRef Dir, const Twine &Name) {
  SmallString<256> P(Dir);
  sys::path::append(P, Name);
  return std::string(P);
}

Error writeFile(StringRef Path, StringRef Text) { return writeFileAtomically(Path, Text); }

struct FileEntry {
  std::string Name;
  uint64_t Begin, End;
};

/// Writes one SE's merged records; returns its files.
Expected<std::vector<FileEntry>> writeShaderData(const Scenario &S, StringRef Dir, uint32_t SE,
                                                 std::vector<WaveStream> &Streams,
                                                 uint64_t &Written, bool &LoseApplied) {
  using Head = std::pair<std::pair<uint64_t, size_t>, Record>;
  auto Later = [](const Head &A, const Head &B) { return A.first > B.first; };
  std::priority_queue<Head, std::vector<Head>, decltype(Later)> Heap(Later);
  for (size_t I = 0; I < Streams.size(); ++I) {
    Record R;
    Expected<bool> More = Streams[I].next(R);
    if (!More)
      return More.takeError();
    if (*More)
      Heap.push({{R.Time, I}, R});
  }
  std::vector<FileEntry> Files;
  std::unique_ptr<raw_fd_ostream> OS;
  uint64_t InFile = 0, Begin = 0, Last = 0;
  auto Close = [&]() -> Error {
    uint64_t Declared = InFile;
    if (S.LoseRecords && !LoseApplied) {
      Declared += S.LoseRecords;
      LoseApplied = true;
    }
    *OS << "\n],\"records_count\":" << Declared << ",\"begin_time\":" << Begin
        << ",\"end_time\":" << Last << "}\n";
    OS->close();
    if (OS->has_error())
      return createStringError(OS->error(), Files.back().Name);
    Files.back().Begin = Begin;
    Files.back().End = Last;
    OS.reset();
    return Error::success();
  };
  while (!Heap.empty()) {
    auto [Key, R] = Heap.top();
    Heap.pop();
    if (!OS) {
      Files.push_back({formatv("shaderdata_{0}_{1}.json", SE, Files.size()).str(), 0, 0});
      std::error_code EC;
      OS = std::make_unique<raw_fd_ostream>(path(Dir, Files.back().Name), EC);
      if (EC)
        return createStringError(EC, Files.back().Name + ": " + EC.message());
      *OS << "{\"type\":\"shaderdata\",\"records_schema\":[\"time\",\"value\",\"cu\",\"simd\","
             "\"wave_id\",\"flags\"],\"records\":[";
      InFile = 0;
      Begin = R.Time;
    }
    *OS << (InFile ? ",\n[" : "\n[") << R.Time << ',' << R.Value << ',' << unsigned(R.CU) << ','
        << unsigned(R.SIMD) << ',' << unsigned(R.Slot) << ',' << unsigned(R.Flags) << ']';
    ++InFile;
    ++Written;
    Last = R.Time;
    if (InFile == S.RecordsPerFile)
      if (Error E = Close())
        return std::move(E);
    Record Next;
    Expected<bool> More = Streams[Key.second].next(Next);
    if (!More)
      return More.takeError();
    if (*More)
      Heap.push({{Next.Time, Key.second}, Next});
  }
  if (OS)
    if (Error E = Close())
      return std::move(E);
  return Files;
}

std::string jsonQuote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// What rocprofv3 sums per code.json row over the wave rows.
struct RowSums {
  uint64_t Hit = 0, Latency = 0, Stall = 0, Idle = 0, StalledRows = 0;
};

/// The category the decoder would give \p Text's instruction, roughly.
int defaultCategory(StringRef Text) {
  StringRef M = Text.split(' ').first;
  if (M == "s_waitcnt" || M.starts_with("s_wait_") || M == "s_nop" || M == "s_barrier")
    return categoryNumber("IMMED");
  if (M.starts_with("s_cbranch") || M == "s_branch")
    return categoryNumber("JUMP");
  if (M.starts_with("s_load") || M.starts_with("s_buffer_load") || M.starts_with("s_store"))
    return categoryNumber("SMEM");
  if (M.starts_with("s_"))
    return categoryNumber("SALU");
  if (M.starts_with("v_"))
    return categoryNumber("VALU");
  if (M.starts_with("ds_"))
    return categoryNumber("LDS");
  if (M.starts_with("flat_"))
    return categoryNumber("FLAT");
  return categoryNumber("VMEM");
}

/// The index of the code row an `inst` event names.
Expected<size_t> codeRowOf(const Scenario &S, const fixture::Event &E) {
  for (size_t I = 0; I < S.Code.size(); ++I)
    if (S.Code[I].Address == E.InstAddress &&
        (!E.InstCodeObject || S.Code[I].CodeObject == E.InstCodeObject) &&
        !StringRef(S.Code[I].Text).starts_with("; "))
      return I;
  return createStringError(inconvertibleErrorCode(),
                           formatv("inst: no code row at {0:x}", E.InstAddress));
}

/// Writes the wave files of \p D (waves with `inst` events) and sums their
/// rows per code row; returns the wave_filenames object.
Expected<std::string> writeWaveFiles(const Scenario &S, const Dispatch &D, StringRef Dir,
                                     bool WriteFiles, std::vector<RowSums> &Sums) {
  // SE -> SIMD -> slot -> index -> entry, as filenames.json nests them.
  std::map<uint32_t, std::map<uint32_t, std::map<uint32_t, std::vector<std::string>>>> Tree;
  for (const Wave &W : D.Waves) {
    bool HasRows = any_of(W.Blocks, [](const EventBlock &B) {
      return any_of(B.Events, [](const fixture::Event &E) { return E.What == fixture::Event::Inst; });
    });
    if (!HasRows)
      continue;
    std::vector<std::string> &Slot = Tree[W.SE][W.SIMD][W.Slot];
    std::string Name = formatv("se{0}_sm{1}_sl{2}_wv{3}.json", W.SE, W.SIMD, W.Slot, Slot.size());
    std::error_code EC;
    std::unique_ptr<raw_fd_ostream> OS;
    if (WriteFiles && !S.omits(Name) && !S.omits("waves")) {
      OS = std::make_unique<raw_fd_ostream>(path(Dir, Name), EC);
      if (EC)
        return createStringError(EC, Name + ": " + EC.message());
      *OS << "{\"name\":\"SE" << W.SE << "\",\"wave\":{\"instructions\":[";
    }
    uint64_t Count = 0, PrevEnd = W.Begin;
    // waitcnt rows, once per waiting instruction.
    std::map<size_t, std::vector<size_t>> Waits;
    for (const EventBlock &B : W.Blocks) {
      std::vector<size_t> RowOf(B.Events.size());
      for (size_t I = 0; I < B.Events.size(); ++I)
        if (B.Events[I].What == fixture::Event::Inst) {
          Expected<size_t> Row = codeRowOf(S, B.Events[I]);
          if (!Row)
            return Row.takeError();
          RowOf[I] = *Row;
        }
      for (uint64_t Rep = 0; Rep < B.Count; ++Rep)
        for (size_t I = 0; I < B.Events.size(); ++I) {
          const fixture::Event &E = B.Events[I];
          if (E.What != fixture::Event::Inst)
            continue;
          const size_t *Row = &RowOf[I];
          uint64_t T = E.Time + Rep * B.Period;
          RowSums &Sum = Sums[*Row];
          ++Sum.Hit;
          Sum.Latency += E.Duration;
          Sum.Stall += E.Stall;
          Sum.StalledRows += E.Stall != 0;
          Sum.Idle += T > PrevEnd ? T - PrevEnd : 0;
          PrevEnd = T + E.Duration;
          int Category = E.Category >= 0 ? E.Category : defaultCategory(S.Code[*Row].Text);
          if (!E.WaitsFor.empty() && !Waits.count(*Row))
            for (uint64_t A : E.WaitsFor) {
              fixture::Event Dep;
              Dep.InstAddress = A;
              Dep.InstCodeObject = E.InstCodeObject;
              Expected<size_t> DepRow = codeRowOf(S, Dep);
              if (!DepRow)
                return DepRow.takeError();
              Waits[*Row].push_back(*DepRow);
            }
          if (OS)
            *OS << (Count ? ",[" : "[") << T << ',' << Category << ',' << E.Stall << ','
                << E.Duration << ',' << *Row << ']';
          ++Count;
        }
    }
    Slot.push_back(formatv("[\"{0}\",{1},{2}]", Name, W.Begin, W.End).str());
    if (!OS)
      continue;
    // The wave's own fields after its rows (the count is known only then):
    // readers must not depend on the order of fields.
    *OS << "],\"waitcnt\":[";
    ListSeparator WaitSep(",");
    for (auto &[Row, Deps] : Waits) {
      *OS << WaitSep << "[" << Row << ",[";
      ListSeparator DepSep(",");
      for (size_t Dep : Deps)
        *OS << DepSep << "[" << Dep << ",0]";
      *OS << "]]";
    }
    *OS << formatv("],\"timeline\":[[2,{0}]],\"begin\":{1},\"end\":{2},"
                   "\"cu\":{3},\"simd\":{4},\"slot\":{5},\"id\":{6}},\"duration\":{0},"
                   "\"num_insts\":{7},\"num_stitched\":{7}}\n",
                   W.End - W.Begin, W.Begin, W.End, W.CU, W.SIMD, W.Slot, Slot.size() - 1, Count)
                   .str();
    OS->close();
    if (OS->has_error())
      return createStringError(OS->error(), Name);
  }
  std::string Json = "{";
  ListSeparator SESep(",");
  for (auto &[SE, SIMDs] : Tree) {
    Json += StringRef(SESep).str() + "\"" + utostr(SE) + "\":{";
    ListSeparator SIMDSep(",");
    for (auto &[SIMD, Slots] : SIMDs) {
      Json += StringRef(SIMDSep).str() + "\"" + utostr(SIMD) + "\":{";
      ListSeparator SlotSep(",");
      for (auto &[Slot, Entries] : Slots) {
        Json += StringRef(SlotSep).str() + "\"" + utostr(Slot) + "\":{";
        for (size_t I = 0; I < Entries.size(); ++I)
          Json += (I ? ",\"" : "\"") + utostr(I) + "\":" + Entries[I];
        Json += "}";
      }
      Json += "}";
    }
    Json += "}";
  }
  return Json + "}";
}

/// code.json in the scenario's variant, with \p Sums as its statistics.
std::string codeJson(const Scenario &S, const std::vector<RowSums> &Sums) {
  StringRef V = S.CodeJsonVariant;
  std::string Rows;
  for (size_t I = 0; I < S.Code.size(); ++I) {
    const CodeLine &C = S.Code[I];
    // A PC-sampling capture has samples only: no traced cycles.
    const RowSums &R = V == "pc-sampling" ? RowSums() : Sums[I];
    Rows += formatv("{0}[{1},0,{2},{3},{4},{5},{6},{7},{8},{9}", I ? ",\n" : "\n",
                    jsonQuote(C.Text), I, jsonQuote(C.Source), C.CodeObject, C.Address, R.Hit,
                    R.Latency, R.Stall, R.Idle)
                .str();
    if (V == "service")
      Rows += formatv(",0,{0},{1},[]", R.Hit, R.StalledRows).str();
    else if (V == "pc-sampling")
      Rows += formatv(",{0},{1},[0,{1},0,0,0,0,0,0,0,0]", Sums[I].Hit, Sums[I].StalledRows).str();
    Rows += "]";
  }
  std::string Json = "{\"code\":[" + Rows + "],";
  if (V == "pc-sampling")
    Json += "\"header\":[\"ISA\",\"_\",\"LineNumber\",\"Source\",\"Codeobj\",\"Vaddr\","
            "\"Hit\",\"Latency\",\"Stall\",\"Idle\",\"PC_Issued\",\"PC_Stalled\","
            "\"Stall_Reasons\"]";
  else
    Json += "\"header\":\"ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, "
            "Idle" +
            std::string(V == "service" ? ", ServiceType, Issued, Stalled, NotIssuedReasons" : "") +
            "\"";
  if (V == "dwarf") {
    Json += ",\"version\":\"snapshot_dwarf-1.1\",\"hsaco\":[],\"kernels\":[";
    ListSeparator Sep(",");
    for (const CodeLine &C : S.Code)
      if (StringRef(C.Text).starts_with("; "))
        Json += formatv("{0}{{\"address\":{1},\"codeobj\":{2},\"name\":{3},\"demangled\":{3}}",
                        StringRef(Sep), C.Address, C.CodeObject,
                        jsonQuote(StringRef(C.Text).drop_front(2)))
                    .str();
    Json += "]";
  } else {
    Json += ",\"version\":" + jsonQuote(S.Version);
  }
  return Json;
}

Error writeDispatch(const Scenario &S, const Dispatch &D, StringRef Root,
                    const std::map<uint32_t, ParsedCodeObject> &Objects, uint64_t &Written) {
  std::string Dir = path(Root, D.Name);
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(EC, Dir + ": " + EC.message());
  bool V31 = S.Version == "3.1.0";

  // Shaderdata, SE by SE.
  std::map<uint32_t, std::vector<const Wave *>> BySE;
  for (const Wave &W : D.Waves)
    BySE[W.SE].push_back(&W);
  std::map<uint32_t, std::vector<FileEntry>> Files;
  bool LoseApplied = false;
  for (auto &[SE, Waves] : BySE) {
    std::vector<WaveStream> Streams;
    for (const Wave *W : Waves) {
      auto K = S.Kernels.find(W->Kernel);
      Streams.emplace_back(*W, codeObjectOf(Objects, K == S.Kernels.end() ? "" : K->second));
    }
    Expected<std::vector<FileEntry>> F = writeShaderData(S, Dir, SE, Streams, Written, LoseApplied);
    if (!F)
      return F.takeError();
    Files[SE] = std::move(*F);
  }

  // Wave files; a PC-sampling capture has none (and null in filenames.json).
  bool PCSampling = S.CodeJsonVariant == "pc-sampling";
  std::vector<RowSums> Sums(S.Code.size());
  Expected<std::string> WaveNames = writeWaveFiles(S, D, Dir, !PCSampling, Sums);
  if (!WaveNames)
    return WaveNames.takeError();

  std::string Names = "{\"global_begin_time\":0,\"gfxv\":" +
                      std::string(S.GfxIp > 9 ? "\"navi\"" : "\"vega\"") +
                      ",\"gfxip\":" + utostr(S.GfxIp) + ",\"version\":" + jsonQuote(S.Version) +
                      ",\"counter_names\":[],\"wave_filenames\":" +
                      (PCSampling ? std::string("null,\"pc_sampling\":true,\"thread_trace\":"
                                                "false,\"is_pcs_stochastic\":false")
                                  : *WaveNames);
  if (V31) {
    Names += ",\"other_simd_filenames\":{},\"shaderdata_filenames\":{";
    ListSeparator Sep(",");
    for (auto &[SE, List] : Files) {
      Names += StringRef(Sep).str() + "\"" + utostr(SE) + "\":[";
      ListSeparator Inner(",");
      for (const FileEntry &F : List)
        Names += StringRef(Inner).str() + "[" + jsonQuote(F.Name) + "," + utostr(F.Begin) + "," +
                 utostr(F.End) + "]";
      Names += "]";
    }
    Names += "}";
  }
  if (!S.omits("filenames.json"))
    if (Error E = writeFile(path(Dir, "filenames.json"), Names + "}\n"))
      return E;

  // Occupancy: a start and an end row per wave, by time, per SE.
  std::string Occ = "{";
  std::map<uint32_t, std::vector<std::pair<uint64_t, std::string>>> Rows;
  for (const Wave &W : D.Waves) {
    if (W.Hidden)
      continue;
    for (bool Start : {true, false}) {
      std::string Row = formatv("[{0},{1},{2},{3},{4},{5}", Start ? W.Begin : W.End, W.CU,
                                W.SIMD, W.Slot, Start ? 1 : 0, W.Kernel)
                            .str();
      if (V31)
        Row += formatv(",0,0,0,{0},0", W.WorkGroup).str();
      Rows[W.SE].push_back({Start ? W.Begin : W.End, Row + "]"});
    }
  }
  for (auto &[SE, List] : Rows) {
    llvm::sort(List);
    Occ += "\"" + utostr(SE) + "\":[";
    ListSeparator Sep(",");
    for (auto &R : List)
      Occ += StringRef(Sep).str() + R.second;
    Occ += "],";
  }
  if (V31)
    Occ += "\"occupancy_fields\":[\"time\",\"cu\",\"simd\",\"wave_id\",\"start\",\"kernel_id\","
           "\"me_id\",\"pipe_id\",\"is_ext\",\"workgroup_id\",\"cluster_id\"],\"events\":{},";
  Occ += "\"dispatches\":{\"0\":\"0 / 0x0\"";
  for (auto &[Id, Name] : S.Kernels)
    Occ += ",\"" + utostr(Id) + "\":" + jsonQuote(Name);
  Occ += "},\"version\":" + jsonQuote(S.Version) + "}\n";
  if (!S.omits("occupancy.json"))
    if (Error E = writeFile(path(Dir, "occupancy.json"), Occ))
      return E;

  // code.json, with the funcmap tables when asked for.
  std::string Code = codeJson(S, Sums);
  if (S.FuncMapInCodeJson) {
    std::string Map, Layout, Payloads;
    for (auto &[Id, P] : Objects) {
      for (const funcmap::Marker &M : P.Map.markers()) {
        Map += formatv("{0}[{1},{2},\"{3}\",{4},{5},0]", Map.empty() ? "" : ",", Id, M.Id,
                       M.prefix(), jsonQuote(M.Name), jsonQuote(M.SourceLoc))
                   .str();
        if (M.ExtraPayloadCount)
          Payloads += formatv("{0}[{1},{2},{3}]", Payloads.empty() ? "" : ",", Id, M.Id,
                              M.ExtraPayloadCount)
                          .str();
      }
      if (auto Enc = P.Map.markerEncoding())
        Layout += formatv("{0}[{1},{2},{3}]", Layout.empty() ? "" : ",", Id,
                          Enc->ShaderClockBits, Enc->ShaderClockShift)
                      .str();
    }
    Code += ",\"sqtt_funcmap\":[" + Map + "],\"sqtt_funcmap_layout\":[" + Layout +
            "],\"sqtt_funcmap_payloads\":[" + Payloads + "]";
  }
  if (!S.omits("code.json"))
    if (Error E = writeFile(path(Dir, "code.json"), Code + "}\n"))
      return E;

  // realtime.json: a 100 MHz reference clock, two samples 1 ms apart.
  if (S.ClockGHz) {
    uint64_t Cycles = uint64_t(*S.ClockGHz * 1e6 + 0.5);
    std::string RT = formatv("{{\"metadata\":{{\"descriptor\":\"[gfx_clock, realtime_clock]\","
                             "\"frequency\":100000000},\"SE0\":[[0,0],[{0},100000]]}\n",
                             Cycles)
                         .str();
    if (Error E = writeFile(path(Dir, "realtime.json"), RT))
      return E;
  }
  return Error::success();
}

} // namespace

Expected<uint64_t> writeScenario(const Scenario &S, StringRef OutDir) {
  if (std::error_code EC = sys::fs::create_directories(OutDir))
    return createStringError(EC, OutDir + ": " + EC.message());
  Expected<std::map<uint32_t, ParsedCodeObject>> Objects = buildCodeObjects(S);
  if (!Objects)
    return Objects.takeError();
  for (auto &[Id, P] : *Objects)
    if (Error E = writeFile(path(OutDir, "fixture_code_object_id_" + Twine(Id) + ".out"), P.Bytes))
      return std::move(E);
  uint64_t Written = 0;
  for (const Dispatch &D : S.Dispatches)
    if (Error E = writeDispatch(S, D, OutDir, *Objects, Written))
      return std::move(E);
  return Written;
}

} // namespace fixture
