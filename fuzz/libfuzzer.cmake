# libFuzzer binaries, build/bin/<target>_fuzzer, in four variants for the
# speed table: with ASan + UBSan (the real ones) and without, each also as a
# decode-only baseline (<target>_decode_fuzzer).  The model is compiled again
# with coverage instrumentation; the plain niov_model stays uninstrumented.

find_package(fmt REQUIRED)
get_target_property(niov_model_sources niov_model SOURCES)
list(TRANSFORM niov_model_sources PREPEND ${PROJECT_SOURCE_DIR}/model/)
set(niov_fuzz_core_sources ${niov_model_sources}
  decode.cpp number.cpp budget.cpp pin.cpp harness.cpp crash_report.cpp)

set(niov_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

# variant: "" (sanitized) or "_nosan"
foreach(variant "" "_nosan")
  if(variant STREQUAL "")
    set(cflags -fsanitize=fuzzer-no-link ${niov_san})
    set(lflags -fsanitize=fuzzer ${niov_san})
  else()
    set(cflags -fsanitize=fuzzer-no-link)
    set(lflags -fsanitize=fuzzer)
  endif()
  set(core niov_fuzz_core${variant})
  add_library(${core} STATIC ${niov_fuzz_core_sources})
  target_include_directories(${core} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/model)
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

# The libFuzzer targets against the misbehaving plugins (plugins/misbehave/).
add_test(NAME misbehave_libfuzzer
  COMMAND bash ${PROJECT_SOURCE_DIR}/plugins/tests/misbehave_test.sh fuzz $<TARGET_FILE:niovcheck>
          ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/niov_misbehave.txt ${PROJECT_SOURCE_DIR} $<TARGET_FILE_DIR:send_fuzzer>)
set_tests_properties(misbehave_libfuzzer PROPERTIES LABELS "fuzz" TIMEOUT 600 SKIP_RETURN_CODE 77)
