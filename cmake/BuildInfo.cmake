# The version and the git commit go into every certificate. The commit is read at build time (not configure time) so
# it stays true as commits land; the generated file is rewritten only when it changes.
set(TVERIFY_BUILD_INFO_CPP ${CMAKE_BINARY_DIR}/generated/build_info.cpp)
add_custom_target(tverify_build_info_gen
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${TVERIFY_BUILD_INFO_CPP}
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${TVERIFY_BUILD_INFO_CPP}
  COMMENT "" VERBATIM)
