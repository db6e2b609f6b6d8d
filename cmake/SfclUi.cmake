# The playground (web/) and the AnchorStream client it uses (clients/js/), embedded into
# sfcl_server_app at build time: `sfcl serve` serves them at / and /ui/ (off with --no-ui).
set(SFCL_UI_FILES
  "/=${PROJECT_SOURCE_DIR}/web/index.html"
  "/ui/playground.css=${PROJECT_SOURCE_DIR}/web/playground.css"
  "/ui/playground.js=${PROJECT_SOURCE_DIR}/web/playground.js"
  "/ui/anchorstream.js=${PROJECT_SOURCE_DIR}/clients/js/anchorstream.js"
  "/ui/example.txt=${PROJECT_SOURCE_DIR}/demo/demo-document.txt")
set(sfcl_ui_deps "")
foreach(pair IN LISTS SFCL_UI_FILES)
  string(REGEX REPLACE "^[^=]*=" "" path "${pair}")
  list(APPEND sfcl_ui_deps "${path}")
endforeach()
string(JOIN "|" sfcl_ui_arg ${SFCL_UI_FILES})
set(sfcl_ui_cpp "${CMAKE_CURRENT_BINARY_DIR}/ui_files.cpp")
add_custom_command(
  OUTPUT "${sfcl_ui_cpp}"
  COMMAND ${CMAKE_COMMAND} "-DOUT=${sfcl_ui_cpp}" "-DFILES=${sfcl_ui_arg}" -P "${PROJECT_SOURCE_DIR}/cmake/SfclEmbed.cmake"
  DEPENDS ${sfcl_ui_deps} "${PROJECT_SOURCE_DIR}/cmake/SfclEmbed.cmake"
  COMMENT "Embedding the playground (web/, clients/js/)"
  VERBATIM)
target_sources(sfcl_server_app PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/app/ui.cpp" "${sfcl_ui_cpp}")
