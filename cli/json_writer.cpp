#include "json_writer.hpp"

namespace niov::cli {

void JsonWriter::put(std::string_view s) {
	buf_ += s;
	if (buf_.size() >= (64 << 10))
		flush();
}

void JsonWriter::flush() {
	if (out_)
		std::fwrite(buf_.data(), 1, buf_.size(), out_);
	else if (str_)
		*str_ += buf_;
	else if (sink_ && !buf_.empty())
		sink_(buf_);
	buf_.clear();
}

void JsonWriter::element() {
	if (after_key_) {
		after_key_ = false;
		return;
	}
	if (!empty_.empty()) {
		put(empty_.back() ? "\n" : ",\n");
		empty_.back() = false;
		buf_.append(2 * empty_.size(), ' ');
	}
}

JsonWriter &JsonWriter::open(char c) {
	element();
	put(std::string_view(&c, 1));
	empty_.push_back(true);
	return *this;
}

JsonWriter &JsonWriter::close(char c) {
	const bool was_empty = empty_.back();
	empty_.pop_back();
	if (!was_empty) {
		put("\n");
		buf_.append(2 * empty_.size(), ' ');
	}
	put(std::string_view(&c, 1));
	if (empty_.empty())
		put("\n");
	return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
	element();
	put(nlohmann::json(std::string(k)).dump());
	put(": ");
	after_key_ = true;
	return *this;
}

JsonWriter &JsonWriter::value(const nlohmann::json &v) {
	element();
	put(v.dump());
	return *this;
}

}  // namespace niov::cli
