# cmake -DIN=<src/report/html> -DOUT=<file.cc> -P embed.cmake
# Writes the report page (report.html, report.css, report.js) as C++ raw string literals, so that the
# CLI carries it and the report needs no files beside it. Declared in report/html_page.h.
set(_body "// Generated from src/report/html/ by embed.cmake; do not edit.\n#include \"report/html_page.h\"\n\nnamespace arenaplan::report::page {\n")
foreach(_pair "kHtml;report.html" "kCss;report.css" "kScript;report.js")
  list(GET _pair 0 _name)
  list(GET _pair 1 _file)
  file(READ ${IN}/${_file} _text)
  string(FIND "${_text}" ")arenaplan\"" _clash)
  if(NOT _clash EQUAL -1)
    message(FATAL_ERROR "${_file} contains the raw-string delimiter )arenaplan\"")
  endif()
  string(APPEND _body "const char ${_name}[] = R\"arenaplan(${_text})arenaplan\";\n")
endforeach()
string(APPEND _body "}  // namespace arenaplan::report::page\n")
file(WRITE ${OUT}.tmp "${_body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
