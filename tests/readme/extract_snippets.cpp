// SPDX-License-Identifier: MIT
// Collects the README's code blocks of one language into one source file, so that the build
// compiles each snippet as a reader would paste it.
// - cpp: every ```cpp block becomes a function of one C++ file. `#include` lines go to the top;
//   an HTML comment `<!-- snippet: PARAMETERS -->` just above a block names what the snippet uses
//   without defining it (a world, a start point...), which become the function's parameters.
// - c, csharp: the ```c (```csharp) blocks are whole files' worth of code (functions, classes):
//   they are written one after the other, their `#include` (`using`) lines first.
//
// usage: rpgnav_extract_snippets README.md OUT cpp|c|csharp
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::string language = argc == 4 ? argv[3] : "";
  if (language != "cpp" && language != "c" && language != "csharp") {
    std::cerr << "usage: rpgnav_extract_snippets README.md OUT cpp|c|csharp\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << argv[1] << ": cannot read\n";
    return 1;
  }
  const std::string fence = "```" + language;
  const std::string hoisted = language == "csharp" ? "using " : "#include";
  const char* comment = language == "csharp" ? "//" : language == "c" ? "/*" : "//";
  std::vector<std::string> heads;
  std::ostringstream code;
  std::string line, parameters, previous;
  int count = 0, lineNumber = 0, start = 0;
  bool inside = false;
  std::ostringstream body;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!inside && line == fence) {
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
      ++count;
      if (language == "cpp") {
        code << "// README.md line " << start << "\n[[maybe_unused]] static int snippet" << count << "(" << parameters
             << ") {\n"
             << body.str() << "  return 0;\n}\n\n";
      } else {
        code << comment << " README.md line " << start << (language == "c" ? " */" : "") << "\n" << body.str() << "\n";
      }
    } else if (inside) {
      if (line.rfind(hoisted, 0) == 0) {
        heads.push_back(line);
      } else if (language == "csharp") {
        body << line << "\n";  // (C# has #line too, but mcs reports README lines well enough by the comment)
      } else {
        body << "#line " << lineNumber << " \"README.md\"\n" << line << "\n";
      }
    }
    if (!line.empty()) previous = line;
  }
  if (inside) {
    std::cerr << argv[1] << ":" << start << ": a " << fence << " block is not closed\n";
    return 1;
  }
  std::ofstream out(argv[2]);
  out << comment << " Generated from README.md by rpgnav_extract_snippets: do not edit." << (language == "c" ? " */" : "")
      << "\n";
  for (const std::string& head : heads) out << head << "\n";
  out << "\n" << code.str();
  std::cout << "README.md: " << count << " " << language << " snippets\n";
  return count > 0 ? 0 : 1;
}
