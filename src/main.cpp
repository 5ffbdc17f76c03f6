#include <iostream>

#include "avocet/cli/cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return avocet::cli::run(argc, argv, std::cin, std::cout, std::cerr);
}
