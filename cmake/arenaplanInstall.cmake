# Install and export of arenaplan's libraries as one CMake package:
#   find_package(arenaplan REQUIRED)  ->  arenaplan::util, arenaplan::plan, arenaplan::runtime, ...
# Headers go to include/arenaplan/<folder>/ (the same relative paths the sources use), libraries to
# lib/, the package files to lib/cmake/arenaplan/. A new library folder is one call of
# arenaplan_install(<target> <export name> <folder>) beside its add_library.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ARENAPLAN_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/arenaplan)
set(ARENAPLAN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/arenaplan)

# The include directories of a library: the source tree when building, include/arenaplan (sources'
# own "plan/problem.h" form) and include/ (<arenaplan/plan/problem.h>) once installed.
function(arenaplan_include_dirs target scope dir)
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${dir}>
                             $<INSTALL_INTERFACE:${ARENAPLAN_INSTALL_INCLUDEDIR}>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()

# arenaplan_install(<target> <export name> [<folder under src/> ...]): exports the target as
# arenaplan::<export name> (an alias of the same name exists in the build tree too) and installs the
# headers of the folders.
function(arenaplan_install target export_name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  add_library(arenaplan::${export_name} ALIAS ${target})
  install(TARGETS ${target} EXPORT arenaplanTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  foreach(folder ${ARGN})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/${folder}/ DESTINATION ${ARENAPLAN_INSTALL_INCLUDEDIR}/${folder}
            FILES_MATCHING PATTERN "*.h")
  endforeach()
endfunction()

# The package files; called once, after every library has been declared.
function(arenaplan_install_package)
  install(EXPORT arenaplanTargets NAMESPACE arenaplan:: DESTINATION ${ARENAPLAN_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/arenaplanConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/arenaplanConfig.cmake
                                INSTALL_DESTINATION ${ARENAPLAN_INSTALL_CMAKEDIR})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/arenaplanConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/arenaplanConfig.cmake ${PROJECT_BINARY_DIR}/arenaplanConfigVersion.cmake
          DESTINATION ${ARENAPLAN_INSTALL_CMAKEDIR})
endfunction()
