//===- InputJobs.cpp - Run a batch's inputs on several threads ------------===//
#include "InputJobs.h"
#include "stinkytofu/support/StableSort.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;

namespace stinkytofu {

namespace {
/// An input's report, kept until its turn to be printed; colored when
/// stderr would be.
class ReportBuffer : public raw_string_ostream {
public:
  ReportBuffer(std::string &Text, bool Colors) : raw_string_ostream(Text), Colors(Colors) {
    enable_colors(Colors);
  }
  bool has_colors() const override { return Colors; }

private:
  bool Colors;
};

struct InputResult {
  std::string Report;
  std::optional<InputStatus> Status; // set once the input is done
};
} // namespace

int runInputJobs(size_t Count, unsigned Jobs, ArrayRef<uint64_t> Cost,
                 function_ref<InputStatus(size_t, raw_ostream &)> Run) {
  unsigned Threads = Jobs ? Jobs : hardware_concurrency().compute_thread_count();
  Threads = unsigned(std::min<size_t>(std::max(Threads, 1u), Count));
  bool Failed = false;
  if (Threads <= 1) {
    for (size_t I = 0; I < Count; ++I) {
      InputStatus Status = Run(I, errs());
      if (Status == InputStatus::Abort)
        return 1;
      Failed |= Status == InputStatus::Failed;
    }
    return Failed ? 1 : 0;
  }

  // Costliest first; equal costs in input order.
  std::vector<size_t> Order(Count);
  std::iota(Order.begin(), Order.end(), size_t(0));
  stableSort(Order, [&](size_t A, size_t B) { return Cost[A] > Cost[B]; });

  std::vector<InputResult> Results(Count);
  std::mutex Lock;
  std::condition_variable Done;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  const bool Colors = errs().has_colors();
  std::optional<size_t> Aborted; // the first input that aborted
  auto Worker = [&] {
    for (size_t N; !Stop && (N = Next++) < Count;) {
      size_t I = Order[N];
      std::string Report;
      InputStatus Status;
      {
        ReportBuffer OS(Report, Colors);
        Status = Run(I, OS);
      }
      std::lock_guard<std::mutex> Guard(Lock);
      if (Status == InputStatus::Abort && !Aborted) {
        Aborted = I;
        Stop = true;
      }
      Results[I].Report = std::move(Report);
      Results[I].Status = Status;
      Done.notify_one();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Worker);

  // Print each input's report as soon as every input before it is printed.
  for (size_t I = 0; I < Count; ++I) {
    std::unique_lock<std::mutex> Guard(Lock);
    Done.wait(Guard, [&] { return Results[I].Status.has_value() || Aborted; });
    if (Aborted)
      break;
    std::string Report = std::move(Results[I].Report);
    Failed |= *Results[I].Status == InputStatus::Failed;
    Guard.unlock();
    errs() << Report;
  }
  for (std::thread &T : Pool)
    T.join();
  // An abort fails every input alike, before anything is written: one
  // thread alone would have stopped at the first input with this report.
  if (Aborted) {
    errs() << Results[*Aborted].Report;
    return 1;
  }
  return Failed ? 1 : 0;
}

} // namespace stinkytofu
