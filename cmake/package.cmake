# The plugin SDK as a CMake package, for the build tree and for `cmake
# --install`: another project does find_package(niovcheck) and
# niovcheck_add_plugin() (cmake/niovcheckConfig.cmake.in).
include(CMakePackageConfigHelpers)

# Build tree: CMAKE_PREFIX_PATH=<build> finds lib/cmake/niovcheck.
set(NIOV_PACKAGE_PREFIX_CODE "")
set(NIOV_PACKAGE_SDK "${PROJECT_SOURCE_DIR}/plugins")
set(NIOV_PACKAGE_EXE "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/niovcheck")
configure_file(${CMAKE_CURRENT_LIST_DIR}/niovcheckConfig.cmake.in
  ${CMAKE_BINARY_DIR}/lib/cmake/niovcheck/niovcheckConfig.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/lib/cmake/niovcheck/niovcheckConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)

# Installed: paths relative to where the package file lands.
set(NIOV_PACKAGE_PREFIX_CODE
  "get_filename_component(niovcheck_prefix \"\${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)")
set(NIOV_PACKAGE_SDK "\${niovcheck_prefix}/share/niovcheck/plugins")
set(NIOV_PACKAGE_EXE "\${niovcheck_prefix}/bin/niovcheck")
configure_file(${CMAKE_CURRENT_LIST_DIR}/niovcheckConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install-package/niovcheckConfig.cmake @ONLY)

install(TARGETS niovcheck RUNTIME DESTINATION bin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/include ${PROJECT_SOURCE_DIR}/plugins/shim
  ${PROJECT_SOURCE_DIR}/plugins/common DESTINATION share/niovcheck/plugins)
install(FILES ${CMAKE_BINARY_DIR}/install-package/niovcheckConfig.cmake
  ${CMAKE_BINARY_DIR}/lib/cmake/niovcheck/niovcheckConfigVersion.cmake DESTINATION lib/cmake/niovcheck)
