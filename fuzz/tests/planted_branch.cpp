// feature_stability --self-test: a branch taken on every third call, the
// shape of a branch on storage kept from the input before.  Compiled with
// coverage and exported, so the report names it.
volatile unsigned niov_planted_sink;

extern "C" [[gnu::noinline]] void niov_feature_stability_planted_branch() {
	static unsigned calls = 0;
	if (++calls % 3 == 0)
		niov_planted_sink = calls;
}
