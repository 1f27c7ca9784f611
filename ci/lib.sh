# Sourced by the cadence scripts (presubmit, nightly, proofs).
# run: print a command and, unless the script's --dry-run set dry=1, run it.
run() { echo "+ $*"; [ "${dry:-0}" = 1 ] || "$@"; }

# A harness finding's line, 'niovcheck-fuzz <target>: <invariant> (...)'; the
# banner 'niovcheck-fuzz: plugin ...' every run with a plugin prints is not one.
niov_finding_re='niovcheck-fuzz [a-z]+: '

# The start every cadence shares: dependencies, then the default build.
install_and_build() {
	run bash ci/install-deps.sh
	run cmake --preset default
	run cmake --build --preset default
}
