#pragma once
// Test support: an image dataset's directory for the length of a test: data.jsonl (written by
// with_lines) beside pics/small.png, a 140 x 140 PNG (100 tokens of 14-pixel patches), and
// large.jpg, a 280 x 140 JPEG (200 tokens), and whatever else a test writes there.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "bench/images/random_image.hpp"
#include "run_process.hpp"

namespace bench::testing {

class ImageDataset {
 public:
  ImageDataset() {
    std::filesystem::create_directory(dir_.file("pics"));
    write("pics/small.png", images::encode_random_image({140, 140}, images::ImageFormat::png, 1));
    write("large.jpg", images::encode_random_image({280, 140}, images::ImageFormat::jpeg, 2));
  }

  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_.file(name), std::ios::binary) << bytes;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_.file(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::uintmax_t size(const std::string& name) const {
    return std::filesystem::file_size(dir_.file(name));
  }
  std::string file(const std::string& name) const { return dir_.file(name); }

  /// data.jsonl of `lines`; its path.
  std::string with_lines(const std::string& lines) const {
    write("data.jsonl", lines);
    return dir_.file("data.jsonl");
  }

 private:
  TempDir dir_;
};

}  // namespace bench::testing
