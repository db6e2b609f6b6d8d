# Strict warnings for sfcl's own targets only (third-party headers come in as SYSTEM).
add_library(sfcl_warnings INTERFACE)
target_compile_options(sfcl_warnings INTERFACE -Wall -Wextra -Werror -Wno-missing-field-initializers)
if(SFCL_SANITIZE)
  add_compile_options(-fsanitize=${SFCL_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${SFCL_SANITIZE})
endif()
