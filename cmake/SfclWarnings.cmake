# Strict warnings for sfcl's own targets only (third-party headers come in as SYSTEM).
add_library(sfcl_warnings INTERFACE)
# -Wno-restrict: GCC 12 false positives on std::string concatenation (GCC bug 105329).
# Clang does not know the option and -Werror turns that into an error (the fuzz preset builds with
# clang), so it is GCC-only.
target_compile_options(sfcl_warnings INTERFACE -Wall -Wextra -Werror -Wno-missing-field-initializers
                                               $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
if(SFCL_SANITIZE)
  add_compile_options(-fsanitize=${SFCL_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${SFCL_SANITIZE})
endif()
if(SFCL_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
# SFCL_ASSERT (src/util/assert.h) checks preconditions in Debug and sanitizer builds.
if(CMAKE_BUILD_TYPE STREQUAL "Debug" OR SFCL_SANITIZE)
  target_compile_definitions(sfcl_warnings INTERFACE SFCL_ENABLE_ASSERTS)
endif()
