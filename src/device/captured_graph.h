// Owned CUDA objects for timing. CapturedGraph: a CUDA graph of `launches` calls of one launch
// function, captured once and replayed: the per-launch time of a replay is what a serving engine
// running CUDA graphs sees. Owns the graph (RAII), so a failure part way leaks nothing.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>

namespace rkv {

class CapturedGraph {
 public:
  using Launch = std::function<cudaError_t(cudaStream_t)>;

  // Throws CudaError naming `name` when a launch or the capture fails.
  CapturedGraph(cudaStream_t stream, int launches, const Launch& launch, const std::string& name);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void replay(cudaStream_t stream) const;
  int launches() const { return launches_; }
  // Edges of the captured graph of type cudaGraphDependencyTypeProgrammatic: what a launch with
  // programmatic stream serialization (PDL) becomes under stream capture (CUDA 12.3 and later).
  // 0 when nothing was launched with PDL, or when the capture dropped the attribute.
  int programmatic_edges() const { return programmatic_edges_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
  int launches_ = 0;
  int programmatic_edges_ = 0;
  std::string name_;
};

// A start/stop event pair on one stream; elapsed time in milliseconds.
class EventPair {
 public:
  EventPair();
  ~EventPair();
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  void start(cudaStream_t stream);
  void stop(cudaStream_t stream);
  float elapsed_ms();  // waits for the stop event

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// A non-blocking stream, owned.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace rkv
