// Results files appear whole or not at all.
#include "bench/util/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bench-atomic-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name));
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
  }
  std::size_t files() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

TEST_F(AtomicFile, AppearsOnlyAtCommitWithEverythingWritten) {
  bench::AtomicFileWriter writer(path("out.jsonl"));
  std::string expected;
  for (int i = 0; i < 100000; ++i) {  // more than the writer's buffer
    const std::string line = "{\"i\":" + std::to_string(i) + "}\n";
    writer.write(line);
    expected += line;
  }
  EXPECT_FALSE(fs::exists(path("out.jsonl")));
  writer.commit();
  EXPECT_EQ(read("out.jsonl"), expected);
  EXPECT_EQ(files(), 1u);  // no temporary file left behind
}

TEST_F(AtomicFile, AWriterDestroyedWithoutCommitLeavesNothing) {
  {
    bench::AtomicFileWriter writer(path("out.json"));
    writer.write("half a file");
  }
  EXPECT_EQ(files(), 0u);
}

TEST_F(AtomicFile, ReplacesAnOldFileWhole) {
  bench::write_file_atomically(path("r.json"), "old");
  bench::write_file_atomically(path("r.json"), "new content");
  EXPECT_EQ(read("r.json"), "new content");
}

TEST_F(AtomicFile, IsAnOrdinaryFileNotAPrivateTemporaryOne) {
  const mode_t old_mask = ::umask(022);
  bench::write_file_atomically(path("r.json"), "x");
  ::umask(old_mask);
  struct stat info {};
  ASSERT_EQ(::stat(path("r.json").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST_F(AtomicFile, AnUnwritablePlaceIsAnErrorNamingThePath) {
  const std::string target = path("no-such-dir/r.json");
  try {
    bench::write_file_atomically(target, "x");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(target), std::string::npos) << error.what();
  }
}

// --save-requests' log: flushed lines are on disk in PATH.partial before the commit (a killed
// run keeps them there); the commit renames it to PATH.
TEST_F(AtomicFile, APartialFileHoldsWhatWasFlushedUntilTheCommit) {
  bench::AtomicFileWriter writer(path("r.jsonl"), bench::AtomicFileWriter::Temp::partial);
  writer.write("{\"i\":0}\n");
  writer.flush();
  EXPECT_EQ(read("r.jsonl.partial"), "{\"i\":0}\n");
  EXPECT_FALSE(fs::exists(path("r.jsonl")));
  writer.commit();
  EXPECT_EQ(read("r.jsonl"), "{\"i\":0}\n");
  EXPECT_EQ(files(), 1u);
}

// A killed run's PATH.partial is replaced by the next run's.
TEST_F(AtomicFile, APartialFileReplacesALeftoverOne) {
  std::ofstream(path("r.jsonl.partial")) << "a killed run's lines\n";
  bench::AtomicFileWriter writer(path("r.jsonl"), bench::AtomicFileWriter::Temp::partial);
  writer.write("new\n");
  writer.commit();
  EXPECT_EQ(read("r.jsonl"), "new\n");
  EXPECT_EQ(files(), 1u);
}

}  // namespace
