# `mbdyn-like view` embeds three.js (Debian's libjs-three, found here at configure time) and the
# page's own files (mbdyn-like/view/page/) into the program: a header generated at build time.
find_file(MBL_THREE_JS three.min.js PATHS /usr/share/javascript/three/build /usr/share/javascript/three
  NO_DEFAULT_PATH REQUIRED)
find_file(MBL_THREE_ORBIT OrbitControls.js PATHS /usr/share/javascript/three/examples/js/controls
  NO_DEFAULT_PATH REQUIRED)
set(MBL_VIEW_PAGE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/mbdyn-like/view/page)
set(MBL_VIEW_ASSETS_HEADER ${CMAKE_BINARY_DIR}/generated/mbdyn-like/view/view_assets.hpp)
set(MBL_VIEW_ASSETS
  "three_js=${MBL_THREE_JS}" "orbit_controls_js=${MBL_THREE_ORBIT}"
  "page_html=${MBL_VIEW_PAGE_DIR}/viewer.html" "page_css=${MBL_VIEW_PAGE_DIR}/viewer.css"
  "page_js=${MBL_VIEW_PAGE_DIR}/viewer.js")
set(MBL_VIEW_ASSET_FILES ${MBL_THREE_JS} ${MBL_THREE_ORBIT} ${MBL_VIEW_PAGE_DIR}/viewer.html
  ${MBL_VIEW_PAGE_DIR}/viewer.css ${MBL_VIEW_PAGE_DIR}/viewer.js)
string(REPLACE ";" "|" MBL_VIEW_ASSETS_ARG "${MBL_VIEW_ASSETS}")
add_custom_command(OUTPUT ${MBL_VIEW_ASSETS_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${MBL_VIEW_ASSETS_HEADER} "-DASSETS=${MBL_VIEW_ASSETS_ARG}"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/mbdyn-like/view/embed_assets.cmake
  DEPENDS ${MBL_VIEW_ASSET_FILES} ${CMAKE_CURRENT_SOURCE_DIR}/mbdyn-like/view/embed_assets.cmake
  COMMENT "Embedding the viewer page and three.js" VERBATIM)
add_custom_target(mbl_view_assets DEPENDS ${MBL_VIEW_ASSETS_HEADER})
add_dependencies(mbl_app mbl_view_assets)
target_include_directories(mbl_app PRIVATE ${CMAKE_BINARY_DIR}/generated)
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/mbdyn-like/view/view_page.cpp
  PROPERTIES OBJECT_DEPENDS ${MBL_VIEW_ASSETS_HEADER})
