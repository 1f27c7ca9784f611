// A streaming JSON writer: what it is given goes out as it comes, so a
// report of any size costs the memory of its largest single value, not of
// the whole document (a nlohmann tree of a million frags is gigabytes).
// Pretty-printed with two-space indents; scalars and small objects go
// through nlohmann for the escaping.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace niov::cli {

class JsonWriter {
public:
	explicit JsonWriter(std::FILE *out) : out_(out) {}
	explicit JsonWriter(std::string &out) : str_(&out) {}
	// Every 64 KiB (and at the end) to @sink: a worker streams it out.
	explicit JsonWriter(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {}
	~JsonWriter() { flush(); }
	JsonWriter(const JsonWriter &) = delete;
	JsonWriter &operator=(const JsonWriter &) = delete;

	JsonWriter &begin_object() { return open('{'); }
	JsonWriter &end_object() { return close('}'); }
	JsonWriter &begin_array() { return open('['); }
	JsonWriter &end_array() { return close(']'); }
	JsonWriter &key(std::string_view k);
	JsonWriter &value(const nlohmann::json &v);
	JsonWriter &field(std::string_view k, const nlohmann::json &v) { return key(k).value(v); }
	void flush();

private:
	JsonWriter &open(char c);
	JsonWriter &close(char c);
	void element();	 // the comma, newline and indent before a value or key
	void put(std::string_view s);

	std::FILE *out_ = nullptr;
	std::string *str_ = nullptr;
	std::function<void(std::string_view)> sink_;
	std::string buf_;
	std::vector<bool> empty_;  // per open container: nothing in it yet
	bool after_key_ = false;
};

}  // namespace niov::cli
