# make install / cmake --install: a relocatable tree under the prefix.
#   bin/sfcl                      RPATH $ORIGIN/../lib/sfcl
#   lib/sfcl/                     llama.cpp + ggml libraries and the ggml CPU backends (not for a
#                                 system llama.cpp, which stays where it is)
#   share/sfcl/sfcl-demo.gguf     the model `sfcl serve` uses without --model
#   share/doc/sfcl/               README.md and docs/
# At run time sfcl looks for its backends in <dir of the binary>/../lib/sfcl (engine/backend.cpp).
set(SFCL_INSTALL_LIBDIR "lib/sfcl")

set_target_properties(sfcl PROPERTIES INSTALL_RPATH "$ORIGIN/../${SFCL_INSTALL_LIBDIR}")
install(TARGETS sfcl RUNTIME DESTINATION bin)
if(NOT SFCL_LLAMA_INSTALL_FILES AND NOT SFCL_LLAMA_INSTALL_TARGETS)
  # A system llama.cpp outside the loader's default paths stays reachable from the installed binary.
  set_target_properties(sfcl PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
endif()

if(SFCL_LLAMA_INSTALL_FILES)
  install(FILES ${SFCL_LLAMA_INSTALL_FILES} DESTINATION ${SFCL_INSTALL_LIBDIR})
endif()
foreach(_target IN LISTS SFCL_LLAMA_INSTALL_TARGETS)
  if(TARGET ${_target})
    get_target_property(_type ${_target} TYPE)
    if(_type STREQUAL "SHARED_LIBRARY" OR _type STREQUAL "MODULE_LIBRARY")
      # Headers stay out: llama.cpp's own install rules (not included) would install them.
      set_target_properties(${_target} PROPERTIES INSTALL_RPATH "$ORIGIN" PUBLIC_HEADER "")
      install(TARGETS ${_target} LIBRARY DESTINATION ${SFCL_INSTALL_LIBDIR} NAMELINK_SKIP)
    endif()
  endif()
endforeach()

if(EXISTS "${PROJECT_SOURCE_DIR}/demo/sfcl-demo.gguf")
  install(FILES "${PROJECT_SOURCE_DIR}/demo/sfcl-demo.gguf" DESTINATION share/sfcl)
endif()
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION share/doc/sfcl)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs" DESTINATION share/doc/sfcl)
