execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  # Changes to the documentation (docs/, Markdown files) do not change the binary: the table scripts rewrite docs
  # with certificates, and those certificates come from the commit as it is.
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no -- . ":(exclude)docs"
                          ":(exclude)*.md"
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
set(content "#include \"checkers/build_info.hpp\"\nnamespace tverify {\nconst char* tool_version() { return \"${VERSION}\"; }\nconst char* tool_commit() { return \"${commit}\"; }\n}\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUTPUT} "${content}")
endif()
