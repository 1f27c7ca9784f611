#include "output_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "args.hpp"
#include "whole_file.hpp"

namespace niov::cli {

namespace fs = std::filesystem;

void check_stdout() {
	if (::fcntl(STDOUT_FILENO, F_GETFL) < 0)
		throw UsageError(fmt::format("stdout: {} (nowhere to write the report)", std::strerror(errno)));
}

void check_output_path(const std::string &path, const std::string &option) {
	struct stat st {};
	if (::stat(path.c_str(), &st) == 0) {
		if (S_ISDIR(st.st_mode))
			throw UsageError(fmt::format("{} {}: is a folder, want a file", option, path));
		if (!S_ISREG(st.st_mode)) {  // a device or FIFO is written in place
			const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0)
				throw UsageError(fmt::format("{} {}: cannot write: {}", option, path, std::strerror(errno)));
			::close(fd);
			return;
		}
	}
	// A regular file is replaced whole (whole_file.hpp): its folder must
	// take a new file.
	const fs::path dir = fs::absolute(path).parent_path();
	const std::string probe = (dir / fmt::format(".niovcheck-probe.{}", ::getpid())).string();
	const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		throw UsageError(fmt::format("{} {}: cannot write: {}", option, path, std::strerror(errno)));
	::close(fd);
	::unlink(probe.c_str());
}

void check_writable(const std::string &dir, const std::string &what) {
	const std::string probe = (fs::path(dir) / fmt::format(".niovcheck-space.{}", ::getpid())).string();
	const std::string err = write_whole_file(probe, std::string(64 * 1024, '\0'));
	::unlink(probe.c_str());
	if (!err.empty())
		throw UsageError(fmt::format("{} {}: cannot write: {}", what, dir, err));
}

}  // namespace niov::cli
