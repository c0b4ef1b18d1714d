//===- FixtureWriter.h - Write a scenario as rocprofv3 --att output -*- C++ -*-===//
//
// OUT/<dispatch>/{filenames,occupancy,code,realtime}.json and
// shaderdata_<SE>_<IDX>.json, OUT/fixture_code_object_id_<N>.out. Records
// are generated wave by wave and merged by time per SE, so memory stays
// bounded by the number of waves however many repeats a scenario asks for.
//
//===----------------------------------------------------------------------===//
#ifndef SQTT_TRACE_FIXTURE_WRITER_H
#define SQTT_TRACE_FIXTURE_WRITER_H

#include "FixtureScenario.h"
#include "llvm/Support/Error.h"

namespace fixture {

/// Writes \p S under \p OutDir (created); returns the records written.
llvm::Expected<uint64_t> writeScenario(const Scenario &S, llvm::StringRef OutDir);

} // namespace fixture

#endif
