#include "bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace niov {

namespace {

// The wording of every limit (model/limits.hpp): "file:line: ... (limit)".
std::string too_large(const std::string &path, uint64_t limit) {
	return fmt::format("{}:1: input size exceeds {} bytes (limit)", path, limit);
}

struct Fd {
	int fd;
	~Fd() {
		if (fd >= 0)
			::close(fd);
	}
};

std::optional<std::string> read_impl(const std::string &path, uint64_t limit, bool missing_ok) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
	// by the fstat below anyway.
	const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
	if (f.fd < 0) {
		if (missing_ok && (errno == ENOENT || errno == ENOTDIR))
			return std::nullopt;
		throw FileError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
	}
	struct stat st {};
	if (::fstat(f.fd, &st) != 0)
		throw FileError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
	if (!S_ISREG(st.st_mode))
		throw FileError(fmt::format("{}: {}, not a regular file", path, file_kind(st.st_mode)));
	if (static_cast<uint64_t>(st.st_size) > limit)
		throw FileError(too_large(path, limit));
	std::string text;
	// One byte past the limit: a file that grows while read is still caught.
	text.resize(static_cast<size_t>(st.st_size) + 1);
	size_t got = 0;
	for (;;) {
		if (got == text.size()) {
			if (text.size() > limit)
				throw FileError(too_large(path, limit));
			text.resize(std::min<uint64_t>(limit + 1, text.size() * 2));
		}
		const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			throw FileError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
		if (n == 0)
			break;
		got += static_cast<size_t>(n);
	}
	text.resize(got);
	return text;
}

}  // namespace

const char *file_kind(unsigned m) {
	return S_ISDIR(m)    ? "a folder"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

std::string read_bounded(const std::string &path, uint64_t limit) { return *read_impl(path, limit, false); }

std::optional<std::string> read_bounded_if_exists(const std::string &path, uint64_t limit) {
	return read_impl(path, limit, true);
}

}  // namespace niov
