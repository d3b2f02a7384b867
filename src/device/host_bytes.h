// A host byte buffer in page-locked memory that only ever grows. Validation downloads every
// output of every case: page-locked memory copies at full PCIe speed, and reusing one buffer
// across a sweep of thousands of cases avoids faulting in (and zeroing) fresh pages each time.
#pragma once

#include <cstdint>

namespace rkv {

class HostBytes {
 public:
  HostBytes() = default;
  ~HostBytes();
  HostBytes(const HostBytes&) = delete;
  HostBytes& operator=(const HostBytes&) = delete;

  void resize(std::int64_t bytes);  // contents are undefined after a growth
  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint8_t operator[](std::int64_t i) const { return data_[i]; }

 private:
  std::uint8_t* data_ = nullptr;
  std::int64_t size_ = 0, capacity_ = 0;
};

}  // namespace rkv
