# Installing bench where Debian puts things (`cmake --install build [--prefix P]`, and the
# Debian package, cmake/package.cmake): the executable in bin/, the docs and the deploy/
# recipes in share/doc/bench/, the man page in share/man/man1/, the shell completion where
# bash-completion and zsh look. The completion and the man page are written at build time by
# the built bench from its own command-line definitions, so they never disagree with --help.
include(GNUInstallDirs)

# A cross build runs what it built through its emulator (cmake/toolchain-aarch64.cmake).
set(bench_run_built ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:bench>)

set(BENCH_BASH_COMPLETION ${CMAKE_BINARY_DIR}/completion/bench)
set(BENCH_ZSH_COMPLETION ${CMAKE_BINARY_DIR}/completion/_bench)
add_custom_command(OUTPUT ${BENCH_BASH_COMPLETION} ${BENCH_ZSH_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${BENCH_BASH_COMPLETION}
          -P ${PROJECT_SOURCE_DIR}/cmake/write_output.cmake -- ${bench_run_built} completion bash
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${BENCH_ZSH_COMPLETION}
          -P ${PROJECT_SOURCE_DIR}/cmake/write_output.cmake -- ${bench_run_built} completion zsh
  DEPENDS bench ${PROJECT_SOURCE_DIR}/cmake/write_output.cmake
  COMMENT "Writing bench's shell completion from its command line" VERBATIM)
add_custom_target(bench_completion ALL DEPENDS ${BENCH_BASH_COMPLETION} ${BENCH_ZSH_COMPLETION})

# The man page: Debian's help2man on the built bench's --help. The version is the project's,
# not --version's output: the commit and libcurl it names are this build machine's, which an
# installed page would misstate. Optional, so a machine without help2man still builds (no man
# page then, said at configure time); scripts/setup installs it.
find_program(BENCH_HELP2MAN help2man)
if(BENCH_HELP2MAN)
  set(BENCH_MAN_PAGE ${CMAKE_BINARY_DIR}/man/bench.1)
  set(help2man_program $<TARGET_FILE:bench>)
  if(CMAKE_CROSSCOMPILING_EMULATOR)
    # help2man runs one program path: a wrapper that runs bench through the emulator.
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emulator)
    set(help2man_program ${CMAKE_BINARY_DIR}/man/bench-emulated)
    file(GENERATE OUTPUT ${help2man_program}
         CONTENT "#!/bin/sh\nexec ${emulator} \"$<TARGET_FILE:bench>\" \"$@\"\n"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
  endif()
  add_custom_command(OUTPUT ${BENCH_MAN_PAGE}
    COMMAND ${BENCH_HELP2MAN} --no-info --section=1 --output=${BENCH_MAN_PAGE}
            --version-string=${PROJECT_VERSION}
            "--name=load generator for OpenAI-compatible LLM inference servers"
            --include=${PROJECT_SOURCE_DIR}/cmake/bench.h2m ${help2man_program}
    DEPENDS bench ${PROJECT_SOURCE_DIR}/cmake/bench.h2m
    COMMENT "Writing bench's man page with help2man" VERBATIM)
  add_custom_target(bench_man ALL DEPENDS ${BENCH_MAN_PAGE})
  install(FILES ${BENCH_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page (scripts/setup installs help2man)")
endif()

install(TARGETS bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${BENCH_BASH_COMPLETION}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${BENCH_ZSH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian policy 12.5: the license as share/doc/PACKAGE/copyright.
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY deploy/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/deploy USE_SOURCE_PERMISSIONS)
