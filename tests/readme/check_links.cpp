// SPDX-License-Identifier: MIT
// Checks the README's links: every in-page link [text](#anchor) names a heading (by the anchor
// GitHub makes from it: lower case, letters, digits, spaces, '-' and '_' kept, spaces become
// '-'), and every relative link to a file, [text](path), names a file that exists.
//
// usage: rpgnav_check_readme_links README.md     (exit 1 and a list when some link is broken)
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

std::string anchorOf(const std::string& heading) {
  std::string slug;
  for (const char c : heading) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_') slug += char(std::tolower(u));
    else if (c == ' ') slug += '-';
    else if (u >= 0x80) slug += c;  // GitHub keeps non-ASCII letters
  }
  return slug;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: rpgnav_check_readme_links README.md\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << argv[1] << ": cannot read\n";
    return 2;
  }
  const std::filesystem::path root = std::filesystem::path(argv[1]).parent_path();
  std::set<std::string> anchors;
  std::vector<std::pair<int, std::string>> links;  // line, target
  std::string line;
  bool code = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("```", 0) == 0) {
      code = !code;
      continue;
    }
    if (code) continue;
    if (line.rfind('#', 0) == 0) {
      const std::size_t text = line.find_first_not_of('#');
      if (text != std::string::npos && line[text] == ' ') anchors.insert(anchorOf(line.substr(text + 1)));
      continue;
    }
    for (std::size_t at = line.find("]("); at != std::string::npos; at = line.find("](", at + 2)) {
      const std::size_t end = line.find(')', at + 2);
      if (end != std::string::npos) links.emplace_back(number, line.substr(at + 2, end - at - 2));
    }
  }
  int broken = 0, inPage = 0;
  for (const auto& [number, target] : links) {
    if (target.rfind("http", 0) == 0) continue;
    const bool ok = target.rfind('#', 0) == 0 ? anchors.count(target.substr(1)) != 0
                                               : std::filesystem::exists(root / target);
    inPage += target.rfind('#', 0) == 0 ? 1 : 0;
    if (!ok) {
      std::cerr << argv[1] << ":" << number << ": link to nothing: " << target << "\n";
      ++broken;
    }
  }
  if (inPage == 0) {
    std::cerr << argv[1] << ": no in-page links found\n";
    return 1;
  }
  std::cout << links.size() << " links, " << inPage << " in-page, " << broken << " broken\n";
  return broken == 0 ? 0 : 1;
}
