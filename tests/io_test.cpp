// io/: outputs written whole or not at all, and never through a planted link or over a device;
// inputs that are not regular files refused without a read that could block.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "io/atomic_file.h"
#include "io/file_kind.h"
#include "io/input_file.h"
#include "io/output_path.h"
#include "temp_paths.h"

namespace rkv {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const std::string dir = per_process_temp_dir() + "io_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string random_text(std::size_t n) {
  std::mt19937 rng(std::random_device{}());
  std::string s(n, ' ');
  for (char& c : s)
    c = static_cast<char>('a' + rng() % 26);
  return s;
}

std::string write_error(const std::string& path, const std::string& text = "x") {
  try {
    write_file_atomically(path, text, "report");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::size_t entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
    ++n;
  return n;
}

TEST(AtomicFile, APlantedLinkAtTheOldTmpNameIsNeverWrittenThrough) {
  const std::string dir = fresh_dir("planted");
  const std::string victim = dir + "/victim", path = dir + "/r.json";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, path + ".tmp");
  const std::string text = random_text(5000);
  write_file_atomically(path, text);
  EXPECT_EQ(slurp(path), text);
  EXPECT_EQ(slurp(victim), "precious");
  EXPECT_TRUE(fs::is_symlink(path + ".tmp"));
  EXPECT_EQ(entries(dir), 3u);  // victim, the link, the report: no temporary file left
}

TEST(AtomicFile, ReplacesARegularFileWholeWithTheUsualMode) {
  const std::string dir = fresh_dir("replace");
  const std::string path = dir + "/nested/r.json";
  write_file_atomically(path, "old");
  const std::string text = random_text(100000);
  write_file_atomically(path, text);
  EXPECT_EQ(slurp(path), text);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  const mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0644 & ~mask);
  EXPECT_EQ(entries(dir + "/nested"), 1u);
}

TEST(AtomicFile, ASymbolicLinkAsTheOutputIsRefusedAndLeftAlone) {
  const std::string dir = fresh_dir("link");
  const std::string target = dir + "/target", link = dir + "/link.json";
  std::ofstream(target) << "kept";
  fs::create_symlink(target, link);
  EXPECT_NE(write_error(link).find("it is a symbolic link"), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), "kept");
  EXPECT_EQ(entries(dir), 2u);
}

TEST(AtomicFile, ADirectoryIsRefusedInOneLine) {
  const std::string dir = fresh_dir("dir");
  const std::string e = write_error(dir);
  EXPECT_EQ(e, "cannot write report '" + dir + "': it is a directory; give a regular file's path");
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(AtomicFile, DevNullIsWrittenInPlaceAndStaysADevice) {
  write_file_atomically("/dev/null", random_text(1000));
  EXPECT_EQ(file_kind("/dev/null"), FileKind::character_device);
}

TEST(AtomicFile, AFullDeviceFailsTheWrite) {
  if (file_kind("/dev/full") != FileKind::character_device) GTEST_SKIP() << "no /dev/full";
  const std::string e = write_error("/dev/full", random_text(100));
  EXPECT_EQ(e, "cannot write report '/dev/full': No space left on device");
}

TEST(AtomicFile, AFifoIsWrittenInPlace) {
  const std::string dir = fresh_dir("fifo");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = random_text(200000);  // larger than a pipe's buffer
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  write_file_atomically(fifo, text);
  reader.join();
  EXPECT_EQ(got, text);
  EXPECT_EQ(file_kind(fifo), FileKind::fifo);
}

TEST(InputFile, NonRegularFilesAreRefusedWithoutReading) {
  const std::string dir = fresh_dir("input");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);  // no writer: a read would block forever
  EXPECT_EQ(read_input_file(fifo, "a JSON file").error, "is a FIFO, not a JSON file");
  EXPECT_EQ(read_input_file("/dev/zero", "a JSON file").error,
            "is a character device, not a JSON file");
  EXPECT_EQ(read_input_file(dir, "a JSON file").error, "is a directory, not a JSON file");
  EXPECT_EQ(read_input_file(dir + "/none", "a JSON file").error, "no such file");
  EXPECT_EQ(read_input_file(dir + "/none/x", "a JSON file").error, "no such file");
}

TEST(InputFile, ReadsAFileWholeAndRefusesOnePastTheLimit) {
  const std::string dir = fresh_dir("limit");
  const std::string path = dir + "/f";
  const std::string text = random_text(70000);
  std::ofstream(path) << text;
  EXPECT_EQ(*read_input_file(path, "a report"), text);
  fs::create_symlink(path, dir + "/link");  // a link to a regular file is that file
  EXPECT_EQ(*read_input_file(dir + "/link", "a report"), text);
  EXPECT_EQ(read_input_file(path, "a report", 69999).error,
            "is larger than 69999 bytes, more than a report can be");
}

TEST(OutputPath, SaysWhyBeforeAnythingIsWritten) {
  const std::string dir = fresh_dir("out");
  const std::string file = dir + "/file";
  std::ofstream(file) << "x";
  EXPECT_EQ(output_path_problem(dir + "/a/b/c.json", OutputKind::file), std::nullopt);
  EXPECT_FALSE(fs::exists(dir + "/a"));  // the check creates nothing
  EXPECT_EQ(output_path_problem(file, OutputKind::file), std::nullopt);
  EXPECT_EQ(output_path_problem("/dev/null", OutputKind::file), std::nullopt);
  EXPECT_EQ(*output_path_problem(dir, OutputKind::file), "is a directory, not a file");
  EXPECT_EQ(*output_path_problem(file + "/x/y.json", OutputKind::file),
            "its folder '" + file + "' is a regular file, not a folder");
  EXPECT_EQ(*output_path_problem("", OutputKind::file), "an empty path");
  EXPECT_NE(output_path_problem("-", OutputKind::file)->find("standard output"), std::string::npos);
  fs::create_symlink(file, dir + "/link");
  EXPECT_EQ(*output_path_problem(dir + "/link", OutputKind::file),
            "is a symbolic link; give the path of the file it points to");
  EXPECT_EQ(output_path_problem(dir, OutputKind::folder), std::nullopt);
  EXPECT_EQ(output_path_problem(dir + "/new/dump", OutputKind::folder), std::nullopt);
  EXPECT_EQ(*output_path_problem(file, OutputKind::folder), "is a regular file, not a folder");
}

}  // namespace
}  // namespace rkv
