# Provides the target sfcl::llama (llama.h + ggml headers and libraries), the compile
# definition SFCL_DEFAULT_BACKEND_DIR (where ggml backends are loaded from in the build tree) and,
# for cmake/SfclInstall.cmake, SFCL_LLAMA_INSTALL_FILES / SFCL_LLAMA_INSTALL_TARGETS (what
# make install copies next to sfcl; empty for a system llama.cpp).
#   default: prebuilt v0.4.0 CPU libraries fetched by scripts/bootstrap into .deps/
#   -DSFCL_LLAMA_FROM_SOURCE=ON: build .deps/llama.cpp from source (slow: ~30 min on 2 cores)
#   no .deps/ at all: find_package(llama CONFIG) for a system llama.cpp
option(SFCL_LLAMA_FROM_SOURCE "Build llama.cpp from the source tree in .deps/llama.cpp" OFF)
set(SFCL_DEPS_DIR "${PROJECT_SOURCE_DIR}/.deps" CACHE PATH "Where scripts/bootstrap put llama.cpp")

set(_llama_src "${SFCL_DEPS_DIR}/llama.cpp")
set(_llama_lib "${SFCL_DEPS_DIR}/llama-prebuilt/lib")
add_library(sfcl_llama INTERFACE)
add_library(sfcl::llama ALIAS sfcl_llama)
# llama.cpp's common library (Jinja chat templates, tool-call parsing, JSON schema -> grammar).
# Only src/engine/chat_common.cpp includes its headers: they pull in llama.cpp's vendored
# nlohmann-json behind common_json, a different version from the one the rest of sfcl uses.
add_library(sfcl_llama_common INTERFACE)
add_library(sfcl::llama_common ALIAS sfcl_llama_common)

if(SFCL_LLAMA_FROM_SOURCE)
  if(NOT EXISTS "${_llama_src}/CMakeLists.txt")
    message(FATAL_ERROR "SFCL_LLAMA_FROM_SOURCE=ON but ${_llama_src} is missing: run scripts/bootstrap")
  endif()
  set(LLAMA_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_TOOLS OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_SERVER OFF CACHE BOOL "" FORCE)
  set(LLAMA_CURL OFF CACHE BOOL "" FORCE)
  add_subdirectory("${_llama_src}" "${CMAKE_BINARY_DIR}/llama.cpp" EXCLUDE_FROM_ALL SYSTEM)
  target_link_libraries(sfcl_llama INTERFACE llama ggml ggml-base)
  target_link_libraries(sfcl_llama_common INTERFACE llama-common)
  set(SFCL_BACKEND_DIR "")
  set(SFCL_LLAMA_INSTALL_FILES "")
  set(SFCL_LLAMA_INSTALL_TARGETS llama llama-common ggml ggml-base ggml-cpu ggml-blas ggml-cuda ggml-vulkan)
  message(STATUS "sfcl: llama.cpp built from source (${_llama_src})")
elseif(EXISTS "${_llama_lib}/libllama.v0.4.0.so")
  foreach(_lib llama:libllama.v0.4.0.so ggml:libggml.v0.4.0.so ggml-base:libggml-base.so)
    string(REPLACE ":" ";" _pair "${_lib}")
    list(GET _pair 0 _name)
    list(GET _pair 1 _file)
    add_library(sfcl_prebuilt_${_name} SHARED IMPORTED)
    set_target_properties(sfcl_prebuilt_${_name} PROPERTIES IMPORTED_LOCATION "${_llama_lib}/${_file}")
    target_link_libraries(sfcl_llama INTERFACE sfcl_prebuilt_${_name})
  endforeach()
  target_include_directories(sfcl_llama SYSTEM INTERFACE "${_llama_src}/include" "${_llama_src}/ggml/include")
  add_library(sfcl_prebuilt_llama_common SHARED IMPORTED)
  set_target_properties(sfcl_prebuilt_llama_common PROPERTIES IMPORTED_LOCATION "${_llama_lib}/libllama-common.so")
  # libllama-common.so exports its own (newer) cpp-httplib: Debian's libcpp-httplib must come first
  # in every link line, so sfcl's httplib calls bind to the version its headers describe.
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET GLOBAL cpp-httplib)
  target_link_libraries(sfcl_llama_common INTERFACE PkgConfig::HTTPLIB sfcl_prebuilt_llama_common sfcl_llama)
  target_include_directories(sfcl_llama_common SYSTEM INTERFACE "${_llama_src}/common")
  # No -Wl,-rpath here: CMake puts the imported libraries' directory in the build tree's RPATH
  # itself, and only then can cmake --install swap it for INSTALL_RPATH.
  set(SFCL_BACKEND_DIR "${_llama_lib}")
  # The CPU backends are dlopen()ed by ggml_backend_load_all_from_path, so every variant goes.
  file(GLOB _backends "${_llama_lib}/libggml-cpu-*.so")
  set(SFCL_LLAMA_INSTALL_FILES "${_llama_lib}/libllama.v0.4.0.so" "${_llama_lib}/libggml.v0.4.0.so"
                               "${_llama_lib}/libggml-base.so" "${_llama_lib}/libllama-common.so" ${_backends})
  set(SFCL_LLAMA_INSTALL_TARGETS "")
  message(STATUS "sfcl: prebuilt llama.cpp v0.4.0 from ${_llama_lib}")
else()
  find_package(llama CONFIG QUIET)
  if(NOT llama_FOUND)
    message(FATAL_ERROR "llama.cpp not found: run scripts/bootstrap (or install a llama.cpp with CMake config files)")
  endif()
  target_link_libraries(sfcl_llama INTERFACE llama)
  if(TARGET llama-common)
    target_link_libraries(sfcl_llama_common INTERFACE llama-common)
  else()
    message(FATAL_ERROR "the system llama.cpp has no llama-common library (chat templates, tool calls)")
  endif()
  set(SFCL_BACKEND_DIR "")
  set(SFCL_LLAMA_INSTALL_FILES "")
  set(SFCL_LLAMA_INSTALL_TARGETS "")
  message(STATUS "sfcl: system llama.cpp (${llama_DIR})")
endif()
target_compile_definitions(sfcl_llama INTERFACE SFCL_DEFAULT_BACKEND_DIR="${SFCL_BACKEND_DIR}")
