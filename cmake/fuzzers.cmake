# The libFuzzer targets of tests/fuzz/, built by clang in a project of their own (the main build's
# C++ compiler may be GCC, which has no libFuzzer) and run by CTest for 60 s each, label `fuzz`
# (`ctest -LE fuzz` leaves them out). Built when clang can link -fsanitize=fuzzer (Debian: clang
# and libclang-rt-dev, which scripts/install-deps.sh installs); RKV_BUILD_FUZZERS=OFF skips them.
find_program(RKV_CLANGXX NAMES clang++ clang++-19 clang++-16 clang++-15 clang++-14)
set(fuzz_probe_ok FALSE)
if(RKV_CLANGXX)
  set(probe_dir ${CMAKE_BINARY_DIR}/fuzz-probe)
  file(WRITE ${probe_dir}/probe.cpp
       "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput("
       "const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${RKV_CLANGXX} -fsanitize=fuzzer,address,undefined ${probe_dir}/probe.cpp
                          -o ${probe_dir}/probe
                  RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_QUIET)
  if(probe_rc EQUAL 0)
    set(fuzz_probe_ok TRUE)
  endif()
endif()
option(RKV_BUILD_FUZZERS "Build the libFuzzer targets with clang and run each 60 s in CTest"
       ${fuzz_probe_ok})
if(NOT RKV_BUILD_FUZZERS OR NOT RKV_BUILD_TESTS)
  return()
endif()
if(NOT fuzz_probe_ok)
  message(FATAL_ERROR "RKV_BUILD_FUZZERS is ON but clang cannot link -fsanitize=fuzzer; install "
                      "clang and libclang-rt-dev (scripts/install-deps.sh), or pass "
                      "-DRKV_BUILD_FUZZERS=OFF")
endif()

include(ExternalProject)
set(RKV_FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
# ccache is optional: without it the variable holds RKV_CCACHE-NOTFOUND, which must not become
# the sub-build's compiler launcher (a clean machine without ccache failed to build the fuzzers).
set(fuzz_launcher "")
if(RKV_CCACHE)
  set(fuzz_launcher ${RKV_CCACHE})
endif()
ExternalProject_Add(rkv_fuzzers
  SOURCE_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz
  BINARY_DIR ${RKV_FUZZ_DIR}
  CMAKE_CACHE_ARGS -DCMAKE_CXX_COMPILER:FILEPATH=${RKV_CLANGXX}
                   -DCMAKE_CXX_COMPILER_LAUNCHER:STRING=${fuzz_launcher}
                   -DRKV_SOURCE_DIR:PATH=${CMAKE_SOURCE_DIR}
                   -DRKV_CUDA_INCLUDE:STRING=${CUDAToolkit_INCLUDE_DIRS}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON  # its own build notices source changes; this only asks it
  USES_TERMINAL_BUILD ON)

# Each run mutates in a fresh folder of the build tree and reads the committed seeds beside it,
# so the seeds are never written to. A crash or a slow input lands in that folder.
foreach(target config_plan case_id report)
  set(work ${CMAKE_BINARY_DIR}/fuzz-work/${target})
  add_test(NAME fuzz_${target}
           COMMAND sh -c "rm -rf '${work}' && mkdir -p '${work}/corpus' && exec '${RKV_FUZZ_DIR}/fuzz_${target}' \
-max_total_time=60 -timeout=1 -print_final_stats=1 -artifact_prefix='${work}/' \
'${work}/corpus' '${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${target}'")
  set_tests_properties(fuzz_${target} PROPERTIES LABELS fuzz TIMEOUT 180)
endforeach()
