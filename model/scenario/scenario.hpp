// A scenario: one configuration, one binding and a sequence of operations.
// The text form (see parse/serialize) is shared by the CLI, the engines, the
// corpora and every counterexample.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"

namespace niov {

struct DmaSeg {
	uint64_t addr = 0;
	uint64_t len = 0;
	bool operator==(const DmaSeg &) const = default;
};

struct IovElem {
	uint64_t base = 0;  // a dmabuf offset
	uint64_t len = 0;
	bool operator==(const IovElem &) const = default;
};

enum class OpKind : uint8_t { send, ack, split, shift, free };

struct Op {
	OpKind kind = OpKind::send;
	std::vector<IovElem> iov;	 // send
	std::optional<uint64_t> length;	 // send: msg size below the iov total
	uint64_t n = 0;			 // ack / split / shift bytes
	uint32_t line = 0;		 // source line, for reports
	bool operator==(const Op &o) const {
		return kind == o.kind && iov == o.iov && length == o.length && n == o.n;
	}
};

struct Scenario {
	Config cfg;
	Dir dir = Dir::tx;
	std::optional<uint32_t> rx_buf_size;  // the bind attribute / zcrx rx_buf_len
	std::optional<unsigned> pp_order;     // driver's page_pool order override
	bool zcrx_device = true;
	uint64_t dmabuf_size = 0;
	bool dmabuf_size_set = false;	      // absent = sum of the segments
	std::vector<DmaSeg> segs;
	std::vector<Op> ops;
	// What the scenario's author expects ("expect" lines); the verdict table
	// compares the run against it.  Empty = expect a clean run.
	std::vector<std::string> expect_violations;  // invariant ids
	std::optional<int> expect_bind_err;	     // negative errno, 0 = success
	std::string name;  // file name or generator tag, for reports
};

// A parse error carries "file:line: message"; the CLI prints it and exits 2.
struct ParseError {
	std::string message;
};

// Strict parser.  Returns the scenario or the first error.
struct ParseResult {
	std::optional<Scenario> scenario;
	ParseError error;
};
ParseResult parse_scenario(std::string_view text, std::string_view file_name);
ParseResult load_scenario_file(const std::string &path);

// Canonical text: parse(serialize(s)) == s for every valid scenario.
std::string serialize_scenario(const Scenario &s);

// Number syntax shared with the CLI: decimal or 0x hex, optional K/M/G/T
// (binary) suffix; false on syntax error or 64-bit overflow.
bool parse_number(std::string_view s, uint64_t &out);

}  // namespace niov
