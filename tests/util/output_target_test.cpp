// Where an output path leads, and so how it is written (util/output_target.hpp).
#include "bench/util/output_target.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

namespace {

namespace fs = std::filesystem;
using Kind = bench::OutputTarget::Kind;

class OutputTarget : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bench-output-target-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

bench::OutputTarget target_of(const std::string& path) {
  auto resolved = bench::resolve_output(path);
  if (const auto* why = std::get_if<std::string>(&resolved)) ADD_FAILURE() << *why;
  return std::get_if<bench::OutputTarget>(&resolved) != nullptr
             ? std::get<bench::OutputTarget>(resolved)
             : bench::OutputTarget{};
}

std::string refusal_of(const std::string& path) {
  auto resolved = bench::resolve_output(path);
  const auto* why = std::get_if<std::string>(&resolved);
  return why != nullptr ? *why : "";
}

TEST_F(OutputTarget, AFileOrNothingYetIsReplacedWhereItIs) {
  std::ofstream(path("r.json")) << "old";
  EXPECT_EQ(target_of(path("r.json")).kind, Kind::replaced_file);
  EXPECT_EQ(target_of(path("r.json")).path, path("r.json"));
  EXPECT_EQ(target_of(path("new.json")).kind, Kind::replaced_file);
}

TEST_F(OutputTarget, SymlinksAreFollowedToTheirTargetRelativeToEachLink) {
  fs::create_directory(path("d"));
  std::ofstream(path("d/r.json")) << "old";
  fs::create_symlink("r.json", path("d/inner"));  // relative to d/
  fs::create_symlink("d/inner", path("outer"));
  EXPECT_EQ(target_of(path("outer")).path, path("d/r.json"));
  EXPECT_EQ(target_of(path("outer")).kind, Kind::replaced_file);
}

TEST_F(OutputTarget, ADanglingSymlinksTargetIsMade) {
  fs::create_symlink("made-later.json", path("link"));
  EXPECT_EQ(target_of(path("link")).path, path("made-later.json"));
  EXPECT_EQ(target_of(path("link")).kind, Kind::replaced_file);
}

TEST_F(OutputTarget, ASymlinkLoopIsRefused) {
  fs::create_symlink("b", path("a"));
  fs::create_symlink("a", path("b"));
  EXPECT_EQ(refusal_of(path("a")), "too many levels of symbolic links");
}

TEST_F(OutputTarget, DevicesFifosAndDescriptorsAreWrittenInPlace) {
  EXPECT_EQ(target_of("/dev/null").kind, Kind::device);
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(target_of(path("fifo")).kind, Kind::device);
  const bench::OutputTarget fd = target_of("/dev/fd/1");
  EXPECT_EQ(fd.kind, Kind::descriptor);
  EXPECT_EQ(fd.fd, 1);
  EXPECT_EQ(target_of("/proc/self/fd/2").fd, 2);
  EXPECT_EQ(target_of("/dev/stdout").fd, 1);  // a link to /proc/self/fd/1
}

TEST_F(OutputTarget, ADirectoryIsRefused) {
  EXPECT_EQ(refusal_of(dir_.string()), "is a directory");
}

}  // namespace
