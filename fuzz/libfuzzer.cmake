# libFuzzer binaries, build/bin/<target>_fuzzer, in four variants for the
# speed table: with ASan + UBSan (the real ones) and without, each also as a
# decode-only baseline (<target>_decode_fuzzer).  The model is compiled again
# with coverage instrumentation; the plain niov_model stays uninstrumented.

find_package(fmt REQUIRED)
# The sources of the plain libraries the drivers link, so a file added
# there is instrumented here too.
# The model's libraries (model/CMakeLists.txt lists them): their sources,
# named from model/, and their folders to include from.
get_property(niov_model_libs GLOBAL PROPERTY NIOV_MODEL_LIBS)
set(niov_model_sources)
set(niov_model_include_dirs)
foreach(lib IN LISTS niov_model_libs)
  get_target_property(srcs ${lib} SOURCES)
  get_target_property(dirs ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  list(APPEND niov_model_sources ${srcs})
  list(APPEND niov_model_include_dirs ${dirs})
endforeach()
list(TRANSFORM niov_model_sources PREPEND ${PROJECT_SOURCE_DIR}/model/)
get_target_property(niov_fuzz_decode_sources niov_fuzz_decode SOURCES)
get_target_property(niov_fuzz_harness_sources niov_fuzz_harness SOURCES)
set(niov_fuzz_core_sources ${niov_model_sources} ${niov_fuzz_decode_sources} ${niov_fuzz_harness_sources})

set(niov_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
set(niov_cov -fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=${CMAKE_CURRENT_SOURCE_DIR}/coverage-ignore.txt)
# The compiler reads the list, the build does not know it: an edit must
# recompile what it instruments.
set_property(SOURCE ${niov_fuzz_core_sources} APPEND PROPERTY OBJECT_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/coverage-ignore.txt)
if(NIOV_TREE_WARNINGS_ONLY)
  # The fuzzers are what this build runs: their speed is measured (ci/bench).
  list(APPEND niov_cov -O2 -g)
endif()

# Compare tracing (trace-cmp) feeds libFuzzer's table of recent compares, so
# the mutator can write an operand into the input: worth it where operands
# come from the input (the decoder, the scenario parser, the rules and the
# model's bind and fill), not in the per-frag machinery that checks, queues
# and reports (called thousands of times an input on values derived many
# steps away, it was 40 % of a bind run).  Nor indirect-call tracing there:
# which of two implementations a virtual call reached is no new behaviour,
# and the hook ran on every frag's niov_dma, encode and release (5 % of a
# send run with a plugin).  Edge coverage stays everywhere.
foreach(f check/checks.cpp check/socket.cpp check/skb_queue.cpp check/rx_sweep.cpp datapath/rx_allocator.cpp
    datapath/model_datapath.cpp datapath/frag_refs.cpp datapath/seg_index.cpp check/trace.cpp check/diff.cpp
    datapath/iov_iter.cpp host/frag_arena.cpp host/breadcrumb.cpp host/alloc_meter.cpp host/plugin.cpp)
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/model/${f} APPEND PROPERTY COMPILE_OPTIONS
    -fno-sanitize-coverage=trace-cmp,indirect-calls)
endforeach()

# The lockstep forwards every frag's lookup, encode and release to the two
# implementations it holds for the run.  UBSan's vptr check on those calls
# missed its small type cache on every call (3 % of the send target with a
# plugin under ASan); ASan still catches a call through a freed object.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/model/host/lockstep_impl.cpp APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=vptr)

# variant: "" (sanitized) or "_nosan"
foreach(variant "" "_nosan")
  if(variant STREQUAL "")
    set(cflags ${niov_cov} ${niov_san})
    set(lflags -fsanitize=fuzzer ${niov_san})
  else()
    set(cflags ${niov_cov})
    set(lflags -fsanitize=fuzzer)
  endif()
  set(core niov_fuzz_core${variant})
  add_library(${core} STATIC ${niov_fuzz_core_sources})
  # File by file even in the unity-built fuzz tree: the per-file coverage
  # options above apply, and the fuzzers' speed is measured against past runs.
  set_target_properties(${core} PROPERTIES UNITY_BUILD OFF)
  target_include_directories(${core} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${niov_model_include_dirs})
  target_link_libraries(${core} PUBLIC ${CMAKE_DL_LIBS} fmt::fmt PRIVATE niov_warnings)
  target_compile_options(${core} PRIVATE ${cflags})
  target_compile_definitions(${core} PRIVATE NIOV_CLI_PATH="$<TARGET_FILE:niovcheck>")
  foreach(t IN LISTS NIOV_FUZZ_TARGETS)
    foreach(kind fuzzer decode_fuzzer)
      set(exe ${t}_${kind}${variant})
      add_executable(${exe} targets/${t}.cpp)
      target_link_libraries(${exe} PRIVATE ${core} niov_warnings)
      target_compile_options(${exe} PRIVATE ${cflags})
      target_link_options(${exe} PRIVATE ${lflags})
      niov_guard_exit(${exe})
      if(kind STREQUAL "decode_fuzzer")
        target_compile_definitions(${exe} PRIVATE NIOV_FUZZ_DECODE_ONLY)
      endif()
    endforeach()
  endforeach()
endforeach()

get_property(niov_correct_plugins GLOBAL PROPERTY NIOV_CORRECT_PLUGINS)

# Coverage that follows the input before (tests/feature_stability.cpp): each
# target's harness and instrumented core without libFuzzer, every seed and
# its mutants run after two different inputs.  The self-test plants such a
# branch and must see it.
# The driver itself is not instrumented, or its own loops would count.
add_library(niov_planted_branch STATIC tests/planted_branch.cpp)
target_compile_options(niov_planted_branch PRIVATE ${niov_cov})
target_link_libraries(niov_planted_branch PRIVATE niov_warnings)
foreach(t IN LISTS NIOV_FUZZ_TARGETS)
  set(exe ${t}_feature_stability)
  add_executable(${exe} tests/feature_stability.cpp targets/${t}.cpp)
  set_target_properties(${exe} PROPERTIES UNITY_BUILD OFF ENABLE_EXPORTS ON)
  target_link_libraries(${exe} PRIVATE niov_planted_branch niov_fuzz_core_nosan niov_fuzz_inputs niov_warnings ${CMAKE_DL_LIBS})
  niov_guard_exit(${exe})
  set(dirs ${PROJECT_SOURCE_DIR}/corpora/${t})
  if(t STREQUAL "scenario")
    list(APPEND dirs ${PROJECT_SOURCE_DIR}/corpora/scenarios)
  endif()
  add_test(NAME fuzz_feature_stability_${t} COMMAND ${exe} ${dirs})
  set_tests_properties(fuzz_feature_stability_${t} PROPERTIES LABELS "fuzz;libfuzzer" TIMEOUT 300)
  # With a plugin: the loader and the lockstep keep state between inputs too.
  foreach(p IN LISTS niov_correct_plugins)
    add_test(NAME fuzz_feature_stability_${t}_${p} COMMAND ${exe} ${dirs})
    set_tests_properties(fuzz_feature_stability_${t}_${p} PROPERTIES LABELS "fuzz;libfuzzer" TIMEOUT 300
      ENVIRONMENT "NIOV_IMPL=$<TARGET_FILE:niov_${p}>")
  endforeach()
endforeach()
add_test(NAME fuzz_feature_stability_self_test
  COMMAND send_feature_stability --self-test --mutants 0 ${PROJECT_SOURCE_DIR}/corpora/send)
set_tests_properties(fuzz_feature_stability_self_test PROPERTIES LABELS "fuzz;libfuzzer"
  PASS_REGULAR_EXPRESSION "niov_feature_stability_planted_branch")

# The libFuzzer targets against the misbehaving plugins (plugins/misbehave/).
add_test(NAME misbehave_libfuzzer
  COMMAND bash ${PROJECT_SOURCE_DIR}/plugins/tests/misbehave_test.sh fuzz $<TARGET_FILE:niovcheck>
          ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/niov_misbehave.txt ${PROJECT_SOURCE_DIR} $<TARGET_FILE_DIR:send_fuzzer>)
set_tests_properties(misbehave_libfuzzer PROPERTIES LABELS "fuzz;libfuzzer" TIMEOUT 600 SKIP_RETURN_CODE 77)

# The seed corpora through the ASan fuzzers against the correct plugins
# ci/fuzz-plugins.sh campaigns on: any finding here is the suite's own false
# alarm, such as LeakSanitizer reporting the unbind leak the
# plugins emulate on the first RX seed.
foreach(p IN LISTS niov_correct_plugins)
  foreach(t IN LISTS NIOV_FUZZ_TARGETS)
    add_test(NAME fuzz_seeds_${p}_${t}
      COMMAND ${t}_fuzzer -runs=0 -max_len=4096 ${PROJECT_SOURCE_DIR}/corpora/${t})
    set_tests_properties(fuzz_seeds_${p}_${t} PROPERTIES LABELS "fuzz;libfuzzer"
      ENVIRONMENT "NIOV_IMPL=$<TARGET_FILE:niov_${p}>")
  endforeach()
endforeach()

# The harness's ASan options (harness.cpp: a 16 MiB quarantine) still report
# a plugin reading memory it freed 64 skbs earlier
# (plugins/tests/fuzz/use_after_free.c).  Fails with ASAN_OPTIONS=poison_heap=0.
add_test(NAME fuzz_asan_use_after_free
  COMMAND bash -c "d=$(mktemp -d) && cd \"$d\" && NIOV_FAILURE_DIR=$d \"$0\" -runs=0 -max_len=4096 \"$1\"; rm -rf \"$d\""
          $<TARGET_FILE:send_fuzzer> ${PROJECT_SOURCE_DIR}/corpora/send)
set_tests_properties(fuzz_asan_use_after_free PROPERTIES LABELS "fuzz;libfuzzer"
  ENVIRONMENT "NIOV_IMPL=$<TARGET_FILE:niov_use_after_free>"
  PASS_REGULAR_EXPRESSION "ERROR: AddressSanitizer: heap-use-after-free")

# The nightly campaign script's verdicts: clean on a correct plugin, a
# finding on a broken variant (12 s).
add_test(NAME fuzz_plugins_script
  COMMAND bash ${PROJECT_SOURCE_DIR}/ci/tests/fuzz_plugins_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(fuzz_plugins_script PROPERTIES LABELS "fuzz;libfuzzer" TIMEOUT 300)

# The scoreboard's fuzz engine over every shipped variant: the variant's
# declared slip is its catch, never a plugin fault (a short budget).
add_test(NAME mutants_fuzz_engine
  COMMAND bash ${PROJECT_SOURCE_DIR}/cli/tests/mutants_fuzz_test.sh $<TARGET_FILE:niovcheck> ${CMAKE_BINARY_DIR}
          ${PROJECT_SOURCE_DIR})
set_tests_properties(mutants_fuzz_engine PROPERTIES LABELS "fuzz;libfuzzer" TIMEOUT 2400 SKIP_RETURN_CODE 77)
