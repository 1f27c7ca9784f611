// The two ends of a fuzz input: a reader that never runs dry (past the end
// every byte is 0, so every byte string decodes to something) and a writer
// for the encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace niov::fuzz {

class ByteReader {
public:
	ByteReader(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}

	uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
	bool empty() const { return p_ >= end_; }
	size_t left() const { return static_cast<size_t>(end_ - p_); }

	// Little-endian, zero-filled past the end.
	uint64_t fixed(unsigned bytes) {
		uint64_t v = 0;
		for (unsigned i = 0; i < bytes; ++i)
			v |= uint64_t{byte()} << (8 * i);
		return v;
	}

	// LEB128; bits past the 64th are dropped, at most 10 bytes are read.
	uint64_t varint() {
		uint64_t v = 0;
		for (unsigned shift = 0; shift < 70; shift += 7) {
			const uint8_t b = byte();
			if (shift < 64)
				v |= uint64_t{b & 0x7fu} << shift;
			if (!(b & 0x80))
				break;
		}
		return v;
	}

private:
	const uint8_t *p_;
	const uint8_t *end_;
};

class ByteWriter {
public:
	void byte(uint8_t b) { out_.push_back(b); }
	void fixed(uint64_t v, unsigned bytes) {
		for (unsigned i = 0; i < bytes; ++i)
			byte(static_cast<uint8_t>(v >> (8 * i)));
	}
	void varint(uint64_t v) {
		while (v >= 0x80) {
			byte(static_cast<uint8_t>(v | 0x80));
			v >>= 7;
		}
		byte(static_cast<uint8_t>(v));
	}
	void append(const std::vector<uint8_t> &b) { out_.insert(out_.end(), b.begin(), b.end()); }
	const std::vector<uint8_t> &bytes() const { return out_; }
	std::vector<uint8_t> take() { return std::move(out_); }

private:
	std::vector<uint8_t> out_;
};

}  // namespace niov::fuzz
