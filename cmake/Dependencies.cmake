# Every dependency is a Debian package; scripts/setup installs them. A missing one stops the configure step with the
# name of the package to install.
find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
  message(FATAL_ERROR "pkg-config not found: install the Debian package 'pkg-config' (or run scripts/setup)")
endif()

macro(tverify_require_pkg target module debian)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET ${module})
  if(NOT ${target}_FOUND)
    message(FATAL_ERROR "${module} not found: install the Debian package '${debian}' (or run scripts/setup)")
  endif()
endmacro()

tverify_require_pkg(GMP gmp libgmp-dev)
tverify_require_pkg(MPFR mpfr libmpfr-dev)
tverify_require_pkg(Z3 z3 libz3-dev)

# MPFI ships no pkg-config file.
find_path(MPFI_INCLUDE_DIR mpfi.h)
find_library(MPFI_LIBRARY mpfi)
if(NOT MPFI_INCLUDE_DIR OR NOT MPFI_LIBRARY)
  message(FATAL_ERROR "MPFI not found: install the Debian package 'libmpfi-dev' (or run scripts/setup)")
endif()
add_library(tverify_mpfi INTERFACE)
target_include_directories(tverify_mpfi INTERFACE ${MPFI_INCLUDE_DIR})
target_link_libraries(tverify_mpfi INTERFACE ${MPFI_LIBRARY})

macro(tverify_require_package name debian)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${name} not found: install the Debian package '${debian}' (or run scripts/setup)")
  endif()
endmacro()

tverify_require_package(Boost libboost-dev 1.74)
tverify_require_package(CLI11 libcli11-dev)
tverify_require_package(fmt libfmt-dev)
tverify_require_package(nlohmann_json nlohmann-json3-dev)
tverify_require_package(Catch2 catch2)
tverify_require_package(Threads libc6-dev)
if(TVERIFY_BUILD_BENCH)
  tverify_require_package(benchmark libbenchmark-dev)
endif()

# Reading ONNX models: Debian's libonnx parses the protobuf; OpenSSL's libcrypto hashes the model file.
tverify_require_package(Protobuf libprotobuf-dev)
tverify_require_package(ONNX libonnx-dev)
tverify_require_package(OpenSSL libssl-dev)

# The Python package: pybind11 against Debian's own interpreter (/usr/bin/python3, where python3-numpy and
# python3-pytest live), not whichever python3 comes first on PATH.
if(TVERIFY_PYTHON)
  set(PYBIND11_FINDPYTHON ON)
  if(EXISTS /usr/bin/python3 AND NOT Python_EXECUTABLE)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  tverify_require_package(pybind11 pybind11-dev)
endif()
