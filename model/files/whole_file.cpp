#include "whole_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace niov {

namespace {

// Every byte to @fd, then close it: the error of the first step that failed.
std::string write_and_close(int fd, std::string_view text) {
	std::string err;
	for (size_t at = 0; at < text.size() && err.empty();) {
		const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? std::strerror(errno) : "short write";
		else
			at += static_cast<size_t>(n);
	}
	// close() reports what a network or quota-limited file system deferred.
	if (::close(fd) != 0 && err.empty())
		err = std::strerror(errno);
	return err;
}

}  // namespace

std::string write_whole_file(const std::string &path, std::string_view text) {
	struct stat st {};
	if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return "is a folder";
		const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return std::strerror(errno);
		return write_and_close(fd, text);
	}
	const std::string tmp = path + ".tmp." + std::to_string(::getpid());
	const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return std::strerror(errno);
	std::string err = write_and_close(fd, text);
	if (err.empty() && ::rename(tmp.c_str(), path.c_str()) != 0)
		err = std::strerror(errno);
	if (!err.empty())
		::unlink(tmp.c_str());
	return err;
}

}  // namespace niov
