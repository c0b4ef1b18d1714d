//===- InputJobs.cpp - Run a batch's inputs on several threads ------------===//
#include "InputJobs.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
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

int runInputJobs(size_t Count, unsigned Jobs,
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

  std::vector<InputResult> Results(Count);
  std::mutex Lock;
  std::condition_variable Done;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  const bool Colors = errs().has_colors();
  auto Worker = [&] {
    for (size_t I; !Stop && (I = Next++) < Count;) {
      std::string Report;
      InputStatus Status;
      {
        ReportBuffer OS(Report, Colors);
        Status = Run(I, OS);
      }
      if (Status == InputStatus::Abort)
        Stop = true;
      std::lock_guard<std::mutex> Guard(Lock);
      Results[I].Report = std::move(Report);
      Results[I].Status = Status;
      Done.notify_one();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Worker);

  // Print each input's report as soon as every input before it is printed.
  bool Aborted = false;
  for (size_t I = 0; I < Count && !Aborted; ++I) {
    std::unique_lock<std::mutex> Guard(Lock);
    // Inputs are started in order, so after an Abort every input before it
    // has been started and finishes.
    Done.wait(Guard, [&] { return Results[I].Status.has_value(); });
    std::string Report = std::move(Results[I].Report);
    InputStatus Status = *Results[I].Status;
    Guard.unlock();
    errs() << Report;
    Aborted = Status == InputStatus::Abort;
    Failed |= Status == InputStatus::Failed;
  }
  for (std::thread &T : Pool)
    T.join();
  return Failed || Aborted ? 1 : 0;
}

} // namespace stinkytofu
