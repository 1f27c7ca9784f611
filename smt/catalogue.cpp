#include "catalogue.hpp"

#include "lemmas/families.hpp"

namespace niov::smt {

const std::vector<Lemma> &catalogue() {
	static const std::vector<Lemma> all = [] {
		std::vector<Lemma> v;
		lemmas::add_sizing(v);
		lemmas::add_rx(v);
		lemmas::add_lookup(v);
		lemmas::add_clamp(v);
		lemmas::add_truesize(v);
		lemmas::add_zcrx(v);
		return v;
	}();
	return all;
}

const Lemma *find_lemma(std::string_view id) {
	for (const auto &l : catalogue())
		if (l.id == id)
			return &l;
	return nullptr;
}

const std::vector<UnsoundCheck> &unsound_catalogue() {
	static const std::vector<UnsoundCheck> all = lemmas::unsound_checks();
	return all;
}

}  // namespace niov::smt
