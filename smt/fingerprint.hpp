// The rules' fingerprint: a hash of the sources that decide what the proofs
// prove (the rule templates, the word interface, presets and devices, the
// rules' prose, the symbolic backend and the lemma catalogue).  Stored with
// the last report; `prove --if-changed` re-runs only when it differs.
#pragma once

#include <string>
#include <vector>

namespace niov::smt {

// The files hashed, relative to the source tree, in hashing order.
std::vector<std::string> fingerprint_files(const std::string &source_dir);

// 16 hex digits, or "" when a file cannot be read (then proofs always run).
std::string rules_fingerprint(const std::string &source_dir);

// The source tree this binary was built from.
std::string default_source_dir();

}  // namespace niov::smt
