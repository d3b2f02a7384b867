#include "device/captured_graph.h"

#include <vector>

#include "device/cuda_check.h"

namespace rkv {
namespace {

int count_programmatic_edges(cudaGraph_t graph) {
  std::size_t n = 0;
  if (cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &n) != cudaSuccess) return 0;
  std::vector<cudaGraphNode_t> from(n), to(n);
  std::vector<cudaGraphEdgeData> data(n);
  if (n == 0 || cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &n) != cudaSuccess)
    return 0;
  int programmatic = 0;
  for (std::size_t i = 0; i < n; ++i)
    programmatic += data[i].type == cudaGraphDependencyTypeProgrammatic;
  return programmatic;
}

}  // namespace

CapturedGraph::CapturedGraph(cudaStream_t stream, int launches, const Launch& launch,
                             const std::string& name)
    : launches_(launches), name_(name) {
  cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
             "beginning the capture of " + name);
  cudaError_t launch_error = cudaSuccess;
  for (int k = 0; k < launches && launch_error == cudaSuccess; ++k)
    launch_error = launch(stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);  // always end the capture
  if (launch_error != cudaSuccess) {
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw CudaError("capturing " + name, launch_error);
  }
  cuda_check(end, "ending the capture of " + name);
  programmatic_edges_ = count_programmatic_edges(graph);
  const cudaError_t inst = cudaGraphInstantiate(&exec_, graph, 0);
  cudaGraphDestroy(graph);
  cuda_check(inst, "instantiating the graph of " + name);
}

CapturedGraph::~CapturedGraph() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
}

void CapturedGraph::replay(cudaStream_t stream) const {
  cuda_check(cudaGraphLaunch(exec_, stream), "replaying the graph of " + name_);
}

EventPair::EventPair() {
  cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
  const cudaError_t e = cudaEventCreate(&stop_);
  if (e != cudaSuccess) {
    cudaEventDestroy(start_);
    throw CudaError("cudaEventCreate", e);
  }
}

EventPair::~EventPair() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventPair::start(cudaStream_t stream) {
  cuda_check(cudaEventRecord(start_, stream), "cudaEventRecord");
}
void EventPair::stop(cudaStream_t stream) {
  cuda_check(cudaEventRecord(stop_, stream), "cudaEventRecord");
}

float EventPair::elapsed_ms() {
  cuda_check(cudaEventSynchronize(stop_), "waiting for a timed launch");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return ms;
}

Stream::Stream() {
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}

Stream::~Stream() {
  cudaStreamDestroy(stream_);
}

}  // namespace rkv
