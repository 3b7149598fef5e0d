# The layers of the C++ source tree, lowest first, the table docs/adding-a-construction.md draws and
# tests/test_layering.cpp reads (as TVERIFY_LAYERS): a folder's code includes its own layer and the layers below it,
# never one above. Folders joined by "+" share a layer.
#   core: arithmetic; io: bounded reads, atomic writes, JSON, hashes, progress lines, LaTeX text; model: the ONNX
#   model engine; constructions: the constructions and their fast evaluators; proofs: Z3 queries; checkers: claims,
#   checks, sweeps, certificates, the registry; mpi: the cluster's transport; commands: recheck, report, recorded
#   command lines; cli: the executable; python: the Python binding.
set(TVERIFY_LAYERS core io model constructions proofs checkers mpi+commands cli+python)

# Puts `folder` on the include path of `target` and of what links it, and nothing else: the folder is seen through a
# link in the build tree (layers/<folder>/<folder> -> the source folder), so the repository root is on no layer's
# include path, and an #include that runs up to a higher layer does not compile.
function(tverify_layer target folder)
  set(dir ${CMAKE_BINARY_DIR}/layers/${folder})
  if(NOT EXISTS ${dir}/${folder})
    file(MAKE_DIRECTORY ${dir})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${dir}/${folder} SYMBOLIC)
  endif()
  target_include_directories(${target} PUBLIC ${dir})
endfunction()

# The programs above every layer (the executable, the tests, the benchmarks, the Python module) see the whole tree.
function(tverify_top target)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
endfunction()
