// SPDX-License-Identifier: MIT
// Turns every ```cpp block of the README into a function of one C++ file, so that the build
// compiles each snippet as a reader would paste it. `#include` lines go to the top; an HTML
// comment `<!-- snippet: PARAMETERS -->` just above a block names what the snippet uses without
// defining it (a world, a start point...), which become the function's parameters.
//
// usage: rpgnav_extract_snippets README.md OUT.cpp
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: rpgnav_extract_snippets README.md OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << argv[1] << ": cannot read\n";
    return 1;
  }
  std::vector<std::string> includes;
  std::ostringstream functions;
  std::string line, parameters, previous;
  int count = 0, lineNumber = 0, start = 0;
  bool inside = false;
  std::ostringstream body;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!inside && line == "```cpp") {
      inside = true;
      start = lineNumber;
      body.str("");
      parameters.clear();
      const std::string marker = "<!-- snippet:";
      if (previous.rfind(marker, 0) == 0 && previous.size() >= marker.size() + 4) {
        parameters = previous.substr(marker.size(), previous.size() - marker.size() - 4);  // up to "-->"
      }
    } else if (inside && line == "```") {
      inside = false;
      functions << "// README.md line " << start << "\n[[maybe_unused]] static int snippet" << ++count << "(" << parameters
                << ") {\n"
                << body.str() << "  return 0;\n}\n\n";
    } else if (inside) {
      if (line.rfind("#include", 0) == 0) {
        includes.push_back(line);
      } else {
        body << "#line " << lineNumber << " \"README.md\"\n" << line << "\n";
      }
    }
    if (!line.empty()) previous = line;
  }
  if (inside) {
    std::cerr << argv[1] << ":" << start << ": a ```cpp block is not closed\n";
    return 1;
  }
  std::ofstream out(argv[2]);
  out << "// Generated from README.md by rpgnav_extract_snippets: do not edit.\n";
  for (const std::string& include : includes) out << include << "\n";
  out << "\n" << functions.str();
  std::cout << "README.md: " << count << " C++ snippets\n";
  return count > 0 ? 0 : 1;
}
